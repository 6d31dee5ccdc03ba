// The host theme the dev preview's MCP Apps host sends: the spec's standard
// style variables (McpUiStyleVariableKey, mcp-apps.md §3.4) for light and
// dark, and css.fonts. The fonts use local() sources only, so they load
// under any widget CSP (no font-src needed).
const shared: Record<string, string> = {
  "--font-sans": '"Host Sans", system-ui, -apple-system, "Segoe UI", sans-serif',
  "--font-mono": 'ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace',
  "--font-weight-normal": "400",
  "--font-weight-medium": "500",
  "--font-weight-semibold": "600",
  "--font-weight-bold": "700",
  "--font-text-sm-size": "0.875rem",
  "--font-text-md-size": "1rem",
  "--font-heading-sm-size": "1.25rem",
  "--font-heading-md-size": "1.5rem",
  "--border-radius-sm": "4px",
  "--border-radius-md": "8px",
  "--border-radius-lg": "12px",
  "--border-width-regular": "1px",
};

const palettes: Record<"light" | "dark", Record<string, string>> = {
  light: {
    "--color-background-primary": "#ffffff",
    "--color-background-secondary": "#f4f4f5",
    "--color-background-tertiary": "#e4e4e7",
    "--color-background-inverse": "#18181b",
    "--color-text-primary": "#18181b",
    "--color-text-secondary": "#52525b",
    "--color-text-tertiary": "#71717a",
    "--color-text-inverse": "#fafafa",
    "--color-text-info": "#1d4ed8",
    "--color-text-danger": "#b91c1c",
    "--color-text-success": "#15803d",
    "--color-border-primary": "#d4d4d8",
    "--color-border-secondary": "#e4e4e7",
    "--color-ring-primary": "#2563eb",
    "--shadow-sm": "0 1px 2px rgba(0, 0, 0, 0.08)",
  },
  dark: {
    "--color-background-primary": "#18181b",
    "--color-background-secondary": "#27272a",
    "--color-background-tertiary": "#3f3f46",
    "--color-background-inverse": "#fafafa",
    "--color-text-primary": "#fafafa",
    "--color-text-secondary": "#a1a1aa",
    "--color-text-tertiary": "#71717a",
    "--color-text-inverse": "#18181b",
    "--color-text-info": "#93c5fd",
    "--color-text-danger": "#fca5a5",
    "--color-text-success": "#86efac",
    "--color-border-primary": "#3f3f46",
    "--color-border-secondary": "#27272a",
    "--color-ring-primary": "#60a5fa",
    "--shadow-sm": "0 1px 2px rgba(0, 0, 0, 0.5)",
  },
};

/** css.fonts: a host font family built from fonts already on the machine. */
export const hostFonts = '@font-face { font-family: "Host Sans"; src: local("Inter"), local("Helvetica Neue"), local("Arial"); }';

/** Per-theme variables a host changes from the defaults above. */
export type StyleOverrides = Record<"light" | "dark", Record<string, string>>;

/** The spec styles object for a theme, with a host's overrides. */
export function hostStyles(theme: "light" | "dark", overrides?: StyleOverrides): { variables: Record<string, string>; css: { fonts: string } } {
  return { variables: { ...shared, ...palettes[theme], ...overrides?.[theme] }, css: { fonts: hostFonts } };
}
