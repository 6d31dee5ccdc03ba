import "./bg.css";
document.body.append("ready");
