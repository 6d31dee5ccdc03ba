// The App adapter's bridge in a widget without the full bridge: what the
// adapter (adapter.ts) needs to answer an App in a window.openai-only host's
// place, read straight from window.openai. There is no ui/* session of the
// bridge's own to wait for or adopt: the App (or the handshake core, core.ts)
// makes the only one.
import type { AdapterBridge } from "./adapter";
import { contextFromOpenai, toolResultFromOpenai } from "./shared";

type JSONObject = Record<string, any>;

const win = window as any;
/**
 * Calls callback with what pick reads of window.openai's globals each time an
 * openai:set_globals event changes it (the event carries the changed globals,
 * which win over window.openai's).
 */
function onGlobals(pick: (globals: JSONObject) => any, callback: (value: any) => void) {
  let last = JSON.stringify(pick(win.openai) ?? null);
  win.addEventListener("openai:set_globals", (e: CustomEvent) => {
    const value = pick({ ...win.openai, ...e.detail?.globals }), json = JSON.stringify(value ?? null);
    if (json != last) { last = json; callback(value); }
  });
}

/** The adapter's bridge over window.openai alone. */
export const openaiHost: AdapterBridge = {
  expectAppHandshake() {},
  sessionUp: () => false,
  settleWithoutSession() {},
  widget: {
    get hostContext() { return contextFromOpenai(win.openai); },
    get toolInput() { return win.openai.toolInput; },
    get toolResult() { return toolResultFromOpenai(win.openai); },
    // OpenAI's documented way to show the model widget data (index.ts does the same).
    updateModelContext: (update) => Promise.resolve(win.openai.setWidgetState({ ...win.openai.widgetState, modelContent: update.structuredContent ?? update.content })),
    onToolInput: (callback) => onGlobals((globals) => globals.toolInput, callback),
    onToolResult: (callback) => onGlobals(toolResultFromOpenai, callback),
    onHostContextChanged: (callback) => onGlobals(contextFromOpenai, callback),
  },
};
