// Minimal bridge: replaced by the full implementation.
type Listener<T> = (value: T) => void;

const listeners: Listener<any>[] = [];
let lastResult: any;

function emit(result: any) {
  lastResult = result;
  for (const l of listeners.slice()) l(result);
}

const openai = (globalThis as any).openai;
if (openai) {
  if (openai.toolOutput) lastResult = { structuredContent: openai.toolOutput };
  window.addEventListener("openai:set_globals", (e: any) => {
    const g = e.detail?.globals;
    if (g && g.toolOutput !== undefined) emit({ structuredContent: g.toolOutput });
  });
}

export const widget = {
  get host(): "chatgpt" | "mcp-apps" | "standalone" {
    return openai ? "chatgpt" : window.parent !== window ? "mcp-apps" : "standalone";
  },
  onToolResult(cb: Listener<any>): () => void {
    listeners.push(cb);
    if (lastResult !== undefined) cb(lastResult);
    return () => {
      const i = listeners.indexOf(cb);
      if (i >= 0) listeners.splice(i, 1);
    };
  },
};

export default widget;
