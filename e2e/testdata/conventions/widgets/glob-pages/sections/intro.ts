export const render = () => "Intro";
