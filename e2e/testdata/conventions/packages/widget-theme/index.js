export const accent = "rgb(200, 30, 90)";
