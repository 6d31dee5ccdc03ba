// A hooks library in the shape of mcp-use's and Skybridge's: it reads the
// ChatGPT globals (window.openai) and its hooks throw outside its provider.
import { createContext, createElement, useContext, useEffect, useState } from "react";

const KitContext = createContext(null);

function read() {
  const o = window.openai || {};
  return { props: o.toolOutput ?? null, theme: o.theme ?? "light" };
}

export function KitProvider({ appName = "app", children }) {
  const [globals, setGlobals] = useState(read);
  useEffect(() => {
    const update = () => setGlobals(read());
    window.addEventListener("openai:set_globals", update);
    update();
    return () => window.removeEventListener("openai:set_globals", update);
  }, []);
  return createElement(KitContext.Provider, { value: { ...globals, appName } }, children);
}

function useKit() {
  const ctx = useContext(KitContext);
  if (!ctx) throw new Error("widget-kit: hooks must be used inside <KitProvider>");
  return ctx;
}

export function useKitProps() {
  return useKit().props;
}

export function useKitTheme() {
  return useKit().theme;
}

export function useKitAppName() {
  return useKit().appName;
}
