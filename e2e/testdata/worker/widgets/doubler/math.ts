export const twice = (n: number) => n * 2;
