export const render = () => "Outro";
