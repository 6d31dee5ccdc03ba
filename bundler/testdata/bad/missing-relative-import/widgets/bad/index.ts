import "./missing.css";
