import { x } from "left-pad-not-installed";
console.log(x);
