export const f = new Function("a", "return a * 2");
console.log(f(2), (0, eval)("1+1"));
document.body.append("ready");
