// Inspector: the tabs beside the conversation — the tool call, the host
// context, the --mcp server, the message log, the issues and the resource.
import { useState } from "preact/hooks";
import type { PreviewController } from "../preview/controller";
import { logStore } from "../devstate";
import { useStore } from "./useStore";
import { Tabs } from "./components/Tabs";
import { ToolPanel } from "./panels/ToolPanel";
import { ContextPanel } from "./panels/ContextPanel";
import { ServerPanel } from "./panels/ServerPanel";
import { LogPanel } from "./panels/LogPanel";
import { IssuesPanel, issueCount } from "./panels/IssuesPanel";
import { ResourcePanel } from "./panels/ResourcePanel";

/** Inspector renders the tab set (ids tab-<id>, panel-<id>). */
export function Inspector({ ctl }: { ctl: PreviewController }) {
  useStore(logStore);
  const [active, setActive] = useState("tool");
  const issues = issueCount();
  return (
    <aside class="inspector" aria-label="Inspector">
      <Tabs
        label="Inspector"
        active={active}
        onSelect={setActive}
        tabs={[
          { id: "tool", label: "Tool", panel: <ToolPanel ctl={ctl} /> },
          { id: "context", label: "Context", panel: <ContextPanel ctl={ctl} /> },
          { id: "log", label: "Log", panel: <LogPanel /> },
          { id: "issues", label: "Issues", badge: issues, panel: <IssuesPanel /> },
          { id: "server", label: "Server", panel: <ServerPanel ctl={ctl} /> },
          { id: "resource", label: "Resource", panel: <ResourcePanel ctl={ctl} /> },
        ]}
      />
    </aside>
  );
}
