// Real MCP Apps host for the browser tests: the ext-apps AppBridge over its
// PostMessageTransport, driving one widget iframe (mcp-apps.md §4.3). Every
// message the widget sends is recorded in window.hostLog for the Go test.
//
// startHost(src, data) loads the widget from src. data.input and data.result
// are sent once the widget is initialized. With data.openai the host is
// ChatGPT as of 2026: it answers ui/* AND the widget frame gets window.openai
// (chatgpt.js, with data.openai as its initial globals; load the widget with
// ?host=chatgpt). With data.proxy the widget runs behind the double-iframe
// sandbox proxy (mcp-apps.md §6.1): the outer frame loads data.proxy, and the
// host sends the widget's HTML in ui/notifications/sandbox-resource-ready.
// setTheme(theme) changes the theme the way the host would (host context with
// the spec's style variables, and window.openai's theme where present). A tools/call from the widget is
// answered by POSTing its params to data.forward (a test endpoint that calls
// the real MCP server) when set, else with data.tools[name] when given, else
// with an echo of the call; a tool in data.slow answers after `after` ms,
// sending notifications/progress for the call's progressToken every `every`
// ms (0: none). data.capabilities replaces the host capabilities; the host
// answers tools/list, resources/list, resources/templates/list,
// prompts/list and sampling/createMessage from the widget (recorded as
// "list" and "sampling") whatever it advertises, so a test sees whether the
// widget asked; with data.bare (a host without a server connection) it
// answers none of them ("Method not found").
import { AppBridge, PostMessageTransport } from "@modelcontextprotocol/ext-apps/app-bridge";

const H = window as any;
const log: any[] = (H.hostLog = []);
const rec = (t: string, p?: unknown) => log.push({ t, p: JSON.parse(JSON.stringify(p ?? null)) });

type HostData = {
  input?: any; result?: any; tools?: Record<string, any>; forward?: string; openai?: any; proxy?: string; context?: any;
  capabilities?: any; slow?: Record<string, { after: number; every: number }>; bare?: boolean;
};

// A few of the spec's standard style variables (mcp-apps.md §3.4), per theme.
const styleVariables: Record<string, Record<string, string>> = {
  light: { "--color-background-primary": "rgb(250, 250, 250)", "--color-text-primary": "rgb(10, 10, 10)" },
  dark: { "--color-background-primary": "rgb(20, 20, 20)", "--color-text-primary": "rgb(240, 240, 240)" },
};

H.startHost = async (src: string, data?: HostData) => {
  if (data?.openai) H.chatgptHost = { log: [], initial: data.openai, tools: data.tools || {} };
  const iframe = document.createElement("iframe");
  iframe.id = "w";
  iframe.setAttribute("sandbox", "allow-scripts allow-same-origin");
  iframe.style.width = "400px";
  document.body.append(iframe);
  const bridge = new AppBridge(
    null,
    { name: data?.openai ? "chatgpt" : "test-host", version: "1.0.0" },
    data?.capabilities ?? { openLinks: {}, serverTools: {}, serverResources: {}, logging: {}, message: { text: {} }, updateModelContext: { text: {} }, downloadFile: {} },
    {
      hostContext: {
        theme: "light", platform: "web", displayMode: "inline", availableDisplayModes: ["inline", "fullscreen"],
        containerDimensions: { maxHeight: 600 }, locale: "en-US",
        toolInfo: { id: 7, tool: { name: "show", inputSchema: { type: "object" } } },
        styles: { variables: styleVariables.light as any },
        ...data?.context,
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
    const slow = data?.slow?.[p.name];
    if (slow) {
      const token = p._meta?.progressToken;
      let sent = 0;
      const beat = slow.every && token !== undefined ? setInterval(() => {
        rec("progress", { progressToken: token, progress: ++sent });
        bridge.notification({ method: "notifications/progress", params: { progressToken: token, progress: sent } });
      }, slow.every) : undefined;
      await new Promise((r) => setTimeout(r, slow.after));
      clearInterval(beat);
      return { content: [{ type: "text", text: "slow " + p.name }], structuredContent: { tool: p.name, progress: sent } };
    }
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
  if (!data?.bare) {
    bridge.onlistresources = async () => (rec("list", "resources/list"), { resources: [{ uri: "file:///a.txt", name: "a" }] });
    bridge.onlistresourcetemplates = async () => (rec("list", "resources/templates/list"), { resourceTemplates: [{ uriTemplate: "file:///{name}", name: "files" }] });
    bridge.onlistprompts = async () => (rec("list", "prompts/list"), { prompts: [{ name: "summarize" }] });
    bridge.oncreatesamplingmessage = async (p) => (rec("sampling", p), { role: "assistant", content: { type: "text", text: "sampled" }, model: "test-model" });
    bridge.setRequestHandler("tools/list", async () => (rec("list", "tools/list"), { tools: [{ name: "show", inputSchema: { type: "object" } }] }));
  }
  bridge.onsizechange = (p) => rec("size", p);
  bridge.onloggingmessage = (p) => rec("log", p);
  bridge.onrequestteardown = (p) => rec("requestteardown", p);
  bridge.oninitialized = () => {
    rec("initialized", bridge.getAppVersion());
    if (data?.input) bridge.sendToolInput({ arguments: data.input });
    if (data?.result) bridge.sendToolResult(data.result);
  };
  if (data?.proxy) {
    bridge.onsandboxready = async () => {
      rec("sandboxready");
      const r = await fetch(src);
      await bridge.sendSandboxResourceReady({ html: await r.text() });
    };
  }
  const initialized = new Promise<void>((res) => bridge.addEventListener("initialized", () => res()));
  // Late tool input (e.g. after user approval) and late results.
  H.sendInput = async (args: any) => {
    await initialized;
    await bridge.sendToolInput({ arguments: args });
    H.chatgptHost?.set?.({ toolInput: args });
  };
  H.sendResult = async (r: any) => {
    await initialized;
    await bridge.sendToolResult(r);
    H.chatgptHost?.set?.({ toolOutput: r.structuredContent ?? null, toolResponseMetadata: r._meta ?? null });
  };
  // A tool the view registered, called by the host (tools/call host → view).
  H.callView = async (name: string, args: any) => {
    await initialized;
    const tools = await bridge.listTools({});
    rec("viewtools", tools.tools.map((t: any) => t.name));
    return bridge.callTool({ name, arguments: args });
  };
  H.setTheme = (theme: "light" | "dark") => {
    bridge.sendHostContextChange({ theme, styles: { variables: styleVariables[theme] as any } });
    H.chatgptHost?.set?.({ theme });
  };
  const transport = new PostMessageTransport(iframe.contentWindow!, iframe.contentWindow!);
  await bridge.connect(transport);
  const inner = transport.onmessage!;
  transport.onmessage = (m: any, extra?: any) => {
    rec("in", m);
    inner(m, extra);
  };
  H.bridge = bridge;
  iframe.src = data?.proxy ?? src;
};
