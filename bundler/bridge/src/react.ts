import { useEffect, useState } from "react";
import { widget } from "./index";

export function useToolOutput<T = Record<string, unknown>>(): T | undefined {
  const [v, setV] = useState<T | undefined>(undefined);
  useEffect(() => widget.onToolResult((r: any) => setV(r?.structuredContent as T)), []);
  return v;
}
