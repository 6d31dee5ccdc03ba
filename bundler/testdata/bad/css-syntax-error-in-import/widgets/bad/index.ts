import "./a.css";
