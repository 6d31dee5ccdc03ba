export const f = (a: number) => a * 2;
console.log(f(2));
document.body.append("ready");
