import data from "./data.txt" with { type: "text" };

document.body.textContent = data;
