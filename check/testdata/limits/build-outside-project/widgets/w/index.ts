import "./style.css";
import secret from "../../../outside.txt" with { type: "text" };

document.body.textContent = secret;
