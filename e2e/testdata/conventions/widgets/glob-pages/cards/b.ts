export default { title: "Beta", order: 1 };
