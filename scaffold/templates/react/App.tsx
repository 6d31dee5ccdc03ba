// The {{.Name}} widget: renders the tool result and calls the tool again
// from a button. "widgetd" and "widgetd/react" are the client bridge every
// widget gets (widgetd.d.ts describes them); they work on every MCP Apps
// host and in ChatGPT.
import { useState } from "react";
import { widget } from "widgetd";
import { useToolOutput } from "widgetd/react";

interface Greeting {
  name?: string;
}

export function App() {
  const output = useToolOutput<Greeting>();
  const [again, setAgain] = useState<Greeting | null>(null);
  const [busy, setBusy] = useState(false);
  if (!output) {
    return <h1 className="greeting">Waiting for the tool result…</h1>;
  }
  const data = again ?? output;
  async function greetAgain() {
    setBusy(true);
    try {
      const result = await widget.callTool("{{.Name}}", { name: "again" });
      setAgain((result.structuredContent ?? {}) as Greeting);
    } finally {
      setBusy(false);
    }
  }
  return (
    <>
      <h1 className="greeting">Hello, {data.name ?? "world"}!</h1>
      <button type="button" disabled={busy} onClick={greetAgain}>
        Greet again
      </button>
    </>
  );
}
