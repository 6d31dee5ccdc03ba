export default "one";
