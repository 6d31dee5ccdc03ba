import { widget } from "widgetd";
import "./hello.css";

interface Greeting {
  name?: string;
  message?: string;
}

const root = document.getElementById("root")!;
root.innerHTML = `<div class="hello"><h1 class="hello__title">Hello…</h1><p class="hello__message"></p></div>`;
const title = root.querySelector<HTMLElement>(".hello__title")!;
const message = root.querySelector<HTMLElement>(".hello__message")!;

widget.onToolResult((result) => {
  const data = (result.structuredContent ?? {}) as Greeting;
  title.textContent = `Hello, ${data.name ?? "world"}!`;
  message.textContent = data.message ?? "";
});
