import "./style.css";
document.getElementById("root")!.textContent = "script entry";
