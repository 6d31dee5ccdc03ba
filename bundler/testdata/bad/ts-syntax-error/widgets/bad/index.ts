const a = 1;
let b: number = ;
