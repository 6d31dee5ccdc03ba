// The part of Vite's ImportMeta (vite/client) this widget uses.
interface ImportMeta {
  glob<Module = unknown>(
    patterns: string | string[],
    options?: { eager?: boolean; import?: string; query?: string | Record<string, string | number | boolean> },
  ): Record<string, Module> & Record<string, () => Promise<Module>>;
}
