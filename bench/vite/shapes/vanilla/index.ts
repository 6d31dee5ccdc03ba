// Vanilla shape: a plain DOM widget with no framework and no App class,
// reading the tool result the host posts as a JSON-RPC notification.
type Forecast = { city: string; days: { day: string; high: number; low: number; sky: string }[] };

import "./style.css";

const root = document.getElementById("root")!;

function render(data: Forecast): void {
  root.replaceChildren();
  const title = document.createElement("h1");
  title.textContent = `Forecast for ${data.city}`;
  const list = document.createElement("ul");
  for (const d of data.days) {
    const item = document.createElement("li");
    item.className = "day";
    item.textContent = `${d.day}: ${d.sky}, ${d.low}–${d.high} °C`;
    list.append(item);
  }
  root.append(title, list);
}

window.addEventListener("message", (event: MessageEvent) => {
  const msg = event.data;
  if (msg?.jsonrpc !== "2.0" || msg.method !== "ui/notifications/tool-result") return;
  const content = msg.params?.structuredContent as Forecast | undefined;
  if (content?.city) render(content);
});
root.textContent = "Waiting for the forecast…";
