// ToolPanel: the tool call the widget is given (name, input, output, content, _meta)
// and how its own tool calls are answered (a canned response or the --mcp
// server).
import type { PreviewController } from "../../preview/controller";
import { useStore } from "../useStore";
import { Button } from "../components/Button";
import { JsonEditor } from "../components/JsonEditor";
import { parseContentBlocks } from "../../jsonparse";
import { Panel } from "../components/Panel";
import { TextField } from "../components/Field";
import { Toggle } from "../components/Toggle";

/** ToolPanel renders the tool call editors and the Send button (#apply). */
export function ToolPanel({ ctl }: { ctl: PreviewController }) {
  const tool = useStore(ctl.tool);
  const settings = useStore(ctl.settings);
  const mcp = ctl.cfg.mcp;
  return (
    <div class="stack">
      <Panel title="Tool call" hint="What the host gives the widget: ui/notifications/tool-input and tool-result, or window.openai.toolInput / toolOutput / toolResponseMetadata.">
        <TextField id="tool-name" label="Tool name" value={tool.toolName} onChange={(v) => ctl.setTool({ toolName: v })} />
        <JsonEditor id="tool-input" label="Input (arguments)" rows={4} value={tool.input} onInput={(v) => ctl.setTool({ input: v })} />
        <JsonEditor id="tool-output" label="Output (structuredContent)" rows={8} value={tool.output} onInput={(v) => ctl.setTool({ output: v })} />
        <JsonEditor
          id="tool-content"
          label="Content (what the model reads)"
          rows={3}
          value={tool.content}
          parse={parseContentBlocks}
          placeholder="Empty: one text block holding the output as JSON, as the MCP SDKs send it"
          onInput={(v) => ctl.setTool({ content: v })}
        />
        <JsonEditor id="tool-meta" label="Result _meta" rows={3} value={tool.meta} onInput={(v) => ctl.setTool({ meta: v })} />
        <div class="row">
          <Button id="apply" variant="primary" disabled={!ctl.toolValid()} onClick={() => ctl.mount()}>
            Send to widget
          </Button>
          <span class="muted small">reloads the widget with this call</span>
        </div>
      </Panel>
      <Panel title="Widget's own tool calls" hint="How callTool from the widget is answered: the fixture's callTool by name, else this response, or the --mcp server.">
        <Toggle id="forward" checked={settings.forward} disabled={!mcp} onChange={(v) => ctl.settings.set({ forward: v })}>
          Forward to the MCP server <code id="mcp-url">{mcp || "(start widgetd dev with --mcp URL)"}</code>
        </Toggle>
        <JsonEditor id="call-response" label="Response (CallToolResult)" rows={5} value={tool.call} onInput={(v) => ctl.setTool({ call: v })} />
      </Panel>
    </div>
  );
}
