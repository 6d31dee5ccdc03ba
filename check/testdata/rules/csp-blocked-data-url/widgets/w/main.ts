import "./font.css";
document.body.append("ready");
