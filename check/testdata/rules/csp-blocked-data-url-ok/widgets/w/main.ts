import "./bg.css";
