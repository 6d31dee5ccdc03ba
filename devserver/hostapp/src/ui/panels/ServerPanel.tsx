// ServerPanel: the --mcp server's tools (GET /_widgetd/mcp/tools), a form
// generated from a tool's input schema beside the raw JSON (a wrong value
// is named at its field and the call waits), the call (POST
// /_widgetd/mcp/call), its result and timing, and the call fed to the
// tool's widget as a host would show it (the server's own resource, else
// the local widget of the tool's name). Without --mcp it says so.
import { useEffect, useState } from "preact/hooks";
import type { PreviewController } from "../../preview/controller";
import { parseJsonObject, pretty } from "../../jsonparse";
import { Button } from "../components/Button";
import { JsonEditor } from "../components/JsonEditor";
import { Panel } from "../components/Panel";
import { Select } from "../components/Select";
import { dev } from "../../devstate";
import type { Json } from "../../types";
import { coerce, fieldErrors, formFields, type FormField } from "./schemaform";

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

// The schema form's logic, for the browser tests' direct evaluation.
Object.assign(dev, { schemaform: { formFields, coerce, fieldErrors } });

function FormFieldInput({ f, value, error, onChange }: { f: FormField; value: unknown; error?: string; onChange: (v: unknown) => void }) {
  const [text, setText] = useState(value === undefined ? "" : String(value));
  const id = "arg-" + f.name;
  const label = f.name + (f.required ? " *" : "");
  const err = <div class="err" id={id + "-err"} role="status">{error || ""}</div>;
  if (f.kind === "boolean") {
    return (
      <div>
        <label class="field field-inline">
          <input id={id} type="checkbox" checked={!!value} onChange={(e) => onChange(coerce(f, e.currentTarget.checked))} /> {label}
        </label>
        {err}
      </div>
    );
  }
  if (f.kind === "enum") {
    return (
      <div>
        <Select id={id} label={label} value={String(value ?? "")} options={[{ value: "", label: "—" }, ...f.options!.map((o) => ({ value: o, label: o }))]} onChange={(v) => onChange(coerce(f, v))} />
        {err}
      </div>
    );
  }
  // Numbers are typed as text (inputmode decimal): a number input would
  // hide what was typed when it is not a number instead of saying so. The
  // text typed is kept while it means the value the JSON holds ("2." is 2),
  // else (the raw JSON was edited) the value is shown.
  const numeric = f.kind === "number" || f.kind === "integer";
  const shown = JSON.stringify(coerce(f, text)) === JSON.stringify(value) ? text : value === undefined ? "" : String(value);
  return (
    <label class="field" title={f.description}>
      <span class="field-label">{label}</span>
      <input id={id} type="text" inputMode={numeric ? "decimal" : undefined} class={error ? "invalid" : ""} aria-invalid={!!error} aria-describedby={id + "-err"} value={shown} onInput={(e) => { setText(e.currentTarget.value); onChange(coerce(f, e.currentTarget.value)); }} />
      {err}
    </label>
  );
}

/** CallAnswer is POST /_widgetd/mcp/call's answer, and which widget it was shown in. */
interface CallAnswer {
  result?: any;
  error?: string;
  resourceUri?: string;
  elapsedMs?: number;
  shown?: string;
}

async function callTool(base: string, name: string, args: Json): Promise<CallAnswer> {
  try {
    const r = await fetch(base + "/_widgetd/mcp/call", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ name, arguments: args }) });
    return r.status === 404 ? { error: noServer } : await r.json();
  } catch (e) {
    return { error: (e as Error).message };
  }
}

/** ServerPanel renders the server's tools, the call form and the result. */
export function ServerPanel({ ctl }: { ctl: PreviewController }) {
  const [listing, setListing] = useState<Listing>(ctl.cfg.mcp ? { state: "loading" } : { state: "none" });
  const [picked, setPicked] = useState("");
  const [args, setArgs] = useState("{}");
  const [answer, setAnswer] = useState<CallAnswer | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (ctl.cfg.mcp) listTools(ctl.cfg.base).then(setListing);
  }, []);
  if (listing.state === "none") return <Panel title="MCP server"><p id="mcp-status" class="empty">{noServer}</p></Panel>;
  if (listing.state === "loading") return <Panel title="MCP server"><p id="mcp-status" class="empty">Listing the server's tools…</p></Panel>;
  if (listing.state === "error") return <Panel title="MCP server"><p id="mcp-status" class="empty bad">{listing.error}</p></Panel>;
  const tool = listing.tools.find((t) => t.name === picked) || listing.tools[0];
  const fields = formFields(tool?.inputSchema);
  const parsed = parseJsonObject(args);
  const values = parsed.ok ? parsed.value : {};
  const errors = fieldErrors(fields, values);
  const invalid = Object.keys(errors);
  const setField = (name: string, v: unknown) => {
    const next = { ...values };
    if (v === undefined) delete next[name];
    else next[name] = v;
    setArgs(pretty(next));
  };
  const call = async () => {
    if (!tool || !parsed.ok || invalid.length) return;
    setBusy(true);
    const a = await callTool(ctl.cfg.base, tool.name, parsed.value);
    // What a host shows after the call: the tool's widget with these
    // arguments and this result.
    if (a.result) a.shown = ctl.showCallResult(tool.name, parsed.value, a.result, a.resourceUri || tool.resourceUri || "");
    setAnswer(a);
    setBusy(false);
  };
  return (
    <div class="stack">
      <Panel title="MCP server" hint={<code id="mcp-status">{listing.url}</code>}>
        {listing.tools.length === 0 ? <p class="empty">The server lists no tools.</p> : null}
        {tool ? (
          <>
            <Select id="server-tool" label="Tool" value={tool.name} options={listing.tools.map((t) => ({ value: t.name, label: (t.title || t.name) + (t.resourceUri ? " · widget" : "") }))} onChange={(v) => { setPicked(v); setArgs("{}"); setAnswer(null); }} />
            {tool.description ? <p class="muted small">{tool.description}</p> : null}
            <div class="grid-2">{fields.map((f) => <FormFieldInput key={tool.name + "/" + f.name} f={f} value={values[f.name]} error={errors[f.name]} onChange={(v) => setField(f.name, v)} />)}</div>
            <JsonEditor id="server-args" label="Arguments (JSON)" rows={4} value={args} onInput={setArgs} />
            <div class="row">
              <Button id="server-call" variant="primary" disabled={busy || !parsed.ok || invalid.length > 0} onClick={call}>{busy ? "Calling…" : "Call tool"}</Button>
              {invalid.length ? <span id="server-invalid" class="err">Fix {invalid.join(", ")} first.</span> : null}
              {answer?.elapsedMs !== undefined ? <span id="server-elapsed" class="muted small">{Math.round(answer.elapsedMs)} ms</span> : null}
            </div>
          </>
        ) : null}
      </Panel>
      {answer ? (
        <Panel title={answer.error ? "Call failed" : answer.result?.isError ? "Result (isError)" : "Result"} hint={answer.result ? <span id="server-shown">{answer.shown ? "Shown in the widget " + answer.shown + "." : "This tool names no widget; the result is only shown here."}</span> : undefined}>
          <pre id="server-result" class={"code-block" + (answer.error ? " bad" : "")}>{answer.error || JSON.stringify(answer.result, null, 2)}</pre>
        </Panel>
      ) : null}
    </div>
  );
}
