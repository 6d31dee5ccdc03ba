import "./font.css";
