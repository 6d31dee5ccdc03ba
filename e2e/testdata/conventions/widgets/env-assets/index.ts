import greeting from "./greeting.txt?raw";
import logoURL from "./logo.svg?url";

const mode = `${import.meta.env.MODE} dev=${import.meta.env.DEV} prod=${import.meta.env.PROD} ssr=${import.meta.env.SSR}`;
const secret = (import.meta.env as Record<string, unknown>).SECRET_TOKEN;

document.body.innerHTML = `
  <p id="mode"></p>
  <p id="message"></p>
  <p id="secret"></p>
  <p id="greeting"></p>
  <img id="logo" alt="logo" width="16" height="16">
  <img id="badge" alt="badge" width="16" height="16">`;
const text = (id: string, value: string) => (document.getElementById(id)!.textContent = value);
text("mode", mode);
text("message", import.meta.env.VITE_MESSAGE);
text("secret", String(secret));
text("greeting", greeting.trim());
(document.getElementById("logo") as HTMLImageElement).src = logoURL;
(document.getElementById("badge") as HTMLImageElement).src = new URL("./badge.svg", import.meta.url).href;
