// ext-apps App + zod shape: the App class connects to the host, and a zod
// schema checks the tool's structured content before it is shown.
import { App } from "@modelcontextprotocol/ext-apps";
import { z } from "zod";
import "./style.css";

const Quote = z.object({
  symbol: z.string().min(1),
  price: z.number(),
  change: z.number(),
  updated: z.string(),
});

const root = document.getElementById("root")!;
const app = new App({ name: "quote-shape", version: "1.0.0" });

app.ontoolresult = (result) => {
  const parsed = Quote.safeParse(result.structuredContent);
  if (!parsed.success) {
    root.textContent = `Unexpected data: ${parsed.error.issues[0]?.message ?? "invalid"}`;
    return;
  }
  const q = parsed.data;
  root.innerHTML = "";
  const h = document.createElement("h1");
  h.textContent = `${q.symbol} ${q.price.toFixed(2)}`;
  const p = document.createElement("p");
  p.className = q.change >= 0 ? "up" : "down";
  p.textContent = `${q.change >= 0 ? "+" : ""}${q.change.toFixed(2)} at ${q.updated}`;
  const refresh = document.createElement("button");
  refresh.textContent = "Refresh";
  refresh.onclick = () => void app.callServerTool({ name: "get-quote", arguments: { symbol: q.symbol } });
  root.append(h, p, refresh);
};

root.textContent = "Connecting…";
app.connect().catch((err: unknown) => {
  root.textContent = `Could not connect: ${String(err)}`;
});
