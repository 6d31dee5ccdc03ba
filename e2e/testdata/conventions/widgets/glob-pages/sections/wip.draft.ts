export const render = () => "Draft: never shown";
