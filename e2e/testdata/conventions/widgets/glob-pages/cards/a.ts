export default { title: "Alpha", order: 2 };
