// widgetd/react: React hooks over the widgetd bridge. Only bundled when a
// widget imports "widgetd/react"; `react` resolves from the widget's own
// node_modules (React 18+, for useSyncExternalStore).
import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from "react";
import { widget } from "./index";
import { registerTool } from "./tools";
import type { DisplayMode } from "widgetd";
import type { ViewToolConfig, ViewToolHandler } from "widgetd/tools";

type Unsub = () => void;
const store = <T>(sub: (cb: () => void) => Unsub, get: () => T): T => useSyncExternalStore(sub, get, get);

/** Arguments of the tool call that rendered the widget. */
export function useToolInput<T = Record<string, unknown>>(): T | undefined {
  return store((cb) => widget.onToolInput(cb), () => widget.toolInput as T | undefined);
}

/** structuredContent of the tool result (undefined until it arrives). */
export function useToolOutput<T = Record<string, unknown>>(): T | undefined {
  return store((cb) => widget.onToolResult(cb), () => widget.toolOutput as T | undefined);
}

/** The full CallToolResult, including content and widget-only _meta. */
export function useToolResult(): any {
  return store((cb) => widget.onToolResult(cb), () => widget.toolResult);
}

/** Host context (theme, displayMode, locale, styles, ...). */
export function useHostContext(): Record<string, any> {
  return store((cb) => widget.onHostContextChanged(cb), () => widget.hostContext);
}

/** The host theme, "light" or "dark" (undefined if the host sets none). */
export function useTheme(): "light" | "dark" | undefined {
  return useHostContext().theme;
}

/** The current display mode and a function that requests another one. */
export function useDisplayMode(): [DisplayMode | undefined, (m: DisplayMode) => Promise<DisplayMode>] {
  return [useHostContext().displayMode, widget.requestDisplayMode];
}

/** Persisted widget state, like useState, stored by the host (or the polyfill). */
export function useWidgetState<T>(initial: T): [T, (s: T | ((prev: T) => T)) => void] {
  const s = store((cb) => widget.onStateChanged(cb), () => widget.state as T | null);
  const set = useCallback((v: T | ((prev: T) => T)) => {
    const prev = (widget.state as T | null) ?? initial;
    void widget.setState(typeof v === "function" ? (v as (p: T) => T)(prev) : v);
  }, []);
  return [s ?? initial, set];
}

/** Registers a view tool while the component is mounted (the latest handler runs). */
export function useViewTool<A = Record<string, unknown>>(name: string, config: ViewToolConfig, handler: ViewToolHandler<A>): void {
  const latest = useRef(handler);
  latest.current = handler;
  useEffect(() => registerTool<A>(name, config, (a) => latest.current(a)), [name]);
}

/** callTool with loading and error state. */
export function useCallTool<R = any, A = Record<string, unknown>>(name: string): {
  call: (args?: A) => Promise<R | undefined>;
  data: R | undefined;
  error: Error | undefined;
  loading: boolean;
} {
  const [st, set] = useState<{ data?: R; error?: Error; loading: boolean }>({ loading: false });
  const call = useCallback(async (args: Record<string, unknown> = {}) => {
    set((s) => ({ ...s, loading: true, error: undefined }));
    try {
      const data = (await widget.callTool(name, args)) as R;
      set({ data, loading: false });
      return data;
    } catch (e) {
      set((s) => ({ ...s, error: e as Error, loading: false }));
      return undefined;
    }
  }, [name]);
  return { call, ...st } as any;
}
