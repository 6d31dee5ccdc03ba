import "./style.css";
import label from "../../../shared/label.txt" with { type: "text" };

document.body.textContent = label;
