// ServerPanel: the --mcp server's tools (GET /_widgetd/mcp/tools), a form
// generated from a tool's input schema beside the raw JSON, the call (POST
// /_widgetd/mcp/call) and its widget rendered from the server's own
// resource. Without --mcp, or when the endpoints answer 404, it says so.
import { useEffect, useState } from "preact/hooks";
import type { PreviewController } from "../../preview/controller";
import { parseJsonObject, pretty } from "../../jsonparse";
import { Button } from "../components/Button";
import { JsonEditor } from "../components/JsonEditor";
import { Panel } from "../components/Panel";
import { Select } from "../components/Select";
import { coerce, formFields, type FormField } from "./schemaform";

/** ServerTool is one tool as /_widgetd/mcp/tools lists it. */
export interface ServerTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema?: any;
  widget?: string;
  resourceUri?: string;
}

type Listing = { state: "loading" } | { state: "none" } | { state: "error"; error: string } | { state: "ok"; url: string; tools: ServerTool[] };

/** noServer is what the panel says when no server is connected. */
export const noServer = "no server connected (start with --mcp URL)";

async function listTools(base: string): Promise<Listing> {
  try {
    const r = await fetch(base + "/_widgetd/mcp/tools");
    if (r.status === 404) return { state: "none" };
    const j = await r.json();
    if (!r.ok || j.error) return { state: "error", error: j.error || `HTTP ${r.status}` };
    return { state: "ok", url: String(j.url || ""), tools: Array.isArray(j.tools) ? j.tools : [] };
  } catch (e) {
    return { state: "error", error: (e as Error).message };
  }
}

function FormFieldInput({ f, value, onChange }: { f: FormField; value: unknown; onChange: (v: unknown) => void }) {
  const id = "arg-" + f.name;
  const label = f.name + (f.required ? " *" : "");
  if (f.kind === "boolean") {
    return (
      <label class="field field-inline">
        <input id={id} type="checkbox" checked={!!value} onChange={(e) => onChange(coerce(f, e.currentTarget.checked))} /> {label}
      </label>
    );
  }
  if (f.kind === "enum") {
    return <Select id={id} label={label} value={String(value ?? "")} options={[{ value: "", label: "—" }, ...f.options!.map((o) => ({ value: o, label: o }))]} onChange={(v) => onChange(coerce(f, v))} />;
  }
  return (
    <label class="field" title={f.description}>
      <span class="field-label">{label}</span>
      <input id={id} type={f.kind === "string" ? "text" : "number"} value={value === undefined ? "" : String(value)} onInput={(e) => onChange(coerce(f, e.currentTarget.value))} />
    </label>
  );
}

/** ServerPanel renders the server's tools, the call form and the result. */
export function ServerPanel({ ctl }: { ctl: PreviewController }) {
  const [listing, setListing] = useState<Listing>(ctl.cfg.mcp ? { state: "loading" } : { state: "none" });
  const [picked, setPicked] = useState("");
  const [args, setArgs] = useState("{}");
  const [answer, setAnswer] = useState<any>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (ctl.cfg.mcp) listTools(ctl.cfg.base).then(setListing);
  }, []);
  if (listing.state === "none") return <Panel title="MCP server"><p id="mcp-status" class="empty">{noServer}</p></Panel>;
  if (listing.state === "loading") return <Panel title="MCP server"><p id="mcp-status" class="empty">Listing the server's tools…</p></Panel>;
  if (listing.state === "error") return <Panel title="MCP server"><p id="mcp-status" class="empty bad">{listing.error}</p></Panel>;
  const tool = listing.tools.find((t) => t.name === picked) || listing.tools[0];
  const parsed = parseJsonObject(args);
  const values = parsed.ok ? parsed.value : {};
  const setField = (name: string, v: unknown) => {
    const next = { ...values };
    if (v === undefined) delete next[name];
    else next[name] = v;
    setArgs(pretty(next));
  };
  const call = async () => {
    if (!tool || !parsed.ok) return;
    setBusy(true);
    try {
      const r = await fetch(ctl.cfg.base + "/_widgetd/mcp/call", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ name: tool.name, arguments: parsed.value }) });
      const j = r.status === 404 ? { error: noServer } : await r.json();
      setAnswer(j);
    } catch (e) {
      setAnswer({ error: (e as Error).message });
    } finally {
      setBusy(false);
    }
  };
  const uri = answer?.resourceUri || tool?.resourceUri;
  return (
    <div class="stack">
      <Panel title="MCP server" hint={<code id="mcp-status">{listing.url}</code>}>
        {listing.tools.length === 0 ? <p class="empty">The server lists no tools.</p> : null}
        {tool ? (
          <>
            <Select id="server-tool" label="Tool" value={tool.name} options={listing.tools.map((t) => ({ value: t.name, label: (t.title || t.name) + (t.resourceUri ? " · widget" : "") }))} onChange={(v) => { setPicked(v); setArgs("{}"); setAnswer(null); }} />
            {tool.description ? <p class="muted small">{tool.description}</p> : null}
            <div class="grid-2">{formFields(tool.inputSchema).map((f) => <FormFieldInput key={f.name} f={f} value={values[f.name]} onChange={(v) => setField(f.name, v)} />)}</div>
            <JsonEditor id="server-args" label="Arguments (JSON)" rows={4} value={args} onInput={setArgs} />
            <div class="row">
              <Button id="server-call" variant="primary" disabled={busy || !parsed.ok} onClick={call}>{busy ? "Calling…" : "Call tool"}</Button>
              {answer?.result && uri ? <Button id="server-render" onClick={() => ctl.renderServerResult(tool.name, values, answer.result, uri)}>Show its widget</Button> : null}
              {answer?.elapsedMs !== undefined ? <span class="muted small">{Math.round(answer.elapsedMs)} ms</span> : null}
            </div>
          </>
        ) : null}
      </Panel>
      {answer ? (
        <Panel title={answer.error ? "Call failed" : "Result"}>
          <pre id="server-result" class={"code-block" + (answer.error ? " bad" : "")}>{answer.error || JSON.stringify(answer.result, null, 2)}</pre>
        </Panel>
      ) : null}
    </div>
  );
}
