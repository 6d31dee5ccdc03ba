// Real MCP Apps host for the browser tests: the ext-apps AppBridge over its
// PostMessageTransport, driving one widget iframe (mcp-apps.md §4.3). Every
// message the widget sends is recorded in window.hostLog for the Go test.
//
// startHost(src, data) loads the widget from src. data.input and data.result
// are sent once the widget is initialized. A tools/call from the widget is
// answered by POSTing its params to data.forward (a test endpoint that calls
// the real MCP server) when set, else with data.tools[name] when given, else
// with an echo of the call.
import { AppBridge, PostMessageTransport } from "@modelcontextprotocol/ext-apps/app-bridge";

const H = window as any;
const log: any[] = (H.hostLog = []);
const rec = (t: string, p?: unknown) => log.push({ t, p: JSON.parse(JSON.stringify(p ?? null)) });

type HostData = { input?: any; result?: any; tools?: Record<string, any>; forward?: string };

H.startHost = async (src: string, data?: HostData) => {
  const iframe = document.createElement("iframe");
  iframe.id = "w";
  iframe.setAttribute("sandbox", "allow-scripts allow-same-origin");
  iframe.style.width = "400px";
  document.body.append(iframe);
  const bridge = new AppBridge(
    null,
    { name: "test-host", version: "1.0.0" },
    { openLinks: {}, serverTools: {}, serverResources: {}, logging: {}, message: { text: {} }, updateModelContext: { text: {} }, downloadFile: {} },
    {
      hostContext: {
        theme: "light", platform: "web", displayMode: "inline", availableDisplayModes: ["inline", "fullscreen"],
        containerDimensions: { maxHeight: 600 }, locale: "en-US",
        toolInfo: { id: 7, tool: { name: "show", inputSchema: { type: "object" } } },
        styles: { variables: { "--color-background-primary": "rgb(250, 250, 250)", "--color-text-primary": "rgb(10, 10, 10)" } as any },
      },
    },
  );
  bridge.oncalltool = async (p) => {
    rec("calltool", p);
    if (data?.forward) {
      const r = await fetch(data.forward, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(p) });
      if (!r.ok) throw new Error(`forward tools/call ${p.name}: ${r.status} ${await r.text()}`);
      return await r.json();
    }
    if (data?.tools?.[p.name]) return data.tools[p.name];
    return { content: [{ type: "text", text: "called " + p.name }], structuredContent: { tool: p.name, echo: p.arguments ?? {} } };
  };
  bridge.onopenlink = async (p) => (rec("openlink", p), {});
  bridge.onmessage = async (p) => (rec("message", p), {});
  bridge.onupdatemodelcontext = async (p) => (rec("modelcontext", p), {});
  bridge.onrequestdisplaymode = async (p) => {
    rec("displaymode", p);
    bridge.sendHostContextChange({ displayMode: p.mode });
    return { mode: p.mode };
  };
  bridge.onreadresource = async (p) => (rec("readresource", p), { contents: [{ uri: p.uri, mimeType: "text/plain", text: "resource " + p.uri }] });
  bridge.ondownloadfile = async (p) => (rec("downloadfile", p), {});
  bridge.onsizechange = (p) => rec("size", p);
  bridge.onloggingmessage = (p) => rec("log", p);
  bridge.onrequestteardown = (p) => rec("requestteardown", p);
  bridge.oninitialized = () => {
    rec("initialized", bridge.getAppVersion());
    if (data?.input) bridge.sendToolInput({ arguments: data.input });
    if (data?.result) bridge.sendToolResult(data.result);
  };
  const transport = new PostMessageTransport(iframe.contentWindow!, iframe.contentWindow!);
  await bridge.connect(transport);
  const inner = transport.onmessage!;
  transport.onmessage = (m: any, extra?: any) => {
    rec("in", m);
    inner(m, extra);
  };
  H.bridge = bridge;
  iframe.src = src;
};
