// Real MCP Apps host for the browser tests: the ext-apps AppBridge over its
// PostMessageTransport, driving one widget iframe (mcp-apps.md §4.3). Every
// message the widget sends is recorded in window.hostLog for the Go test.
import { AppBridge, PostMessageTransport } from "@modelcontextprotocol/ext-apps/app-bridge";

const H = window as any;
const log: any[] = (H.hostLog = []);
const rec = (t: string, p?: unknown) => log.push({ t, p: JSON.parse(JSON.stringify(p ?? null)) });

H.startHost = async (src: string, data?: { input?: any; result?: any }) => {
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
