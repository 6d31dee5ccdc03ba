// The hosts the preview emulates (docs/dev.md "Hosts"); devserver/hosts.go
// holds the same names for the sandbox origin and `widgetd test`.
//
//  - "mcp-apps": the generic MCP Apps host, the real AppBridge (mcp-apps.md §3).
//  - "chatgpt": ChatGPT as of 2026: the AppBridge answers ui/* with
//    hostInfo.name "chatgpt" (chatgpt-apps.md §1.3) and the frame also has
//    window.openai, as in the bridge matrix's "window.openai + ui/*" host.
//  - "chatgpt-legacy": ChatGPT before ui/*: window.openai only, ui/initialize
//    is never answered.
//  - "claude": the AppBridge with Claude's hostInfo ("Claude"), capabilities
//    (no pip, no sandbox permissions) and ui.domain rule: Claude renders no
//    iframe for a ui.domain other than sha256(connector URL)[:32] under
//    claudemcpcontent.com (chatgpt-apps.md §0.5, mcp-apps.md §2).
import type { McpUiHostCapabilities, McpUiDisplayMode } from "@modelcontextprotocol/ext-apps/app-bridge";
import type { StyleOverrides } from "./styles";

export type HostName = "mcp-apps" | "chatgpt" | "chatgpt-legacy" | "claude";

export interface HostProfile {
  name: HostName;
  /** The AppBridge answers ui/* (every host but chatgpt-legacy). */
  ui: boolean;
  /** window.openai is installed in the widget frame. */
  openai: boolean;
  /** hostInfo of the ui/initialize answer. */
  hostInfo: { name: string; version: string };
  /** Display modes the host offers (availableDisplayModes). */
  displayModes: McpUiDisplayMode[];
  /** Style variables the host sends differently from the generic host. */
  styles?: StyleOverrides;
  /** The ui/initialize hostCapabilities for a widget's csp and permissions. */
  capabilities(csp: unknown, permissions: unknown): McpUiHostCapabilities;
}

/** hostAliases maps the names of older widgetd versions to today's. */
const hostAliases: Record<string, HostName> = { mcp: "mcp-apps" };

const generic = (version: string): HostProfile => ({
  name: "mcp-apps",
  ui: true,
  openai: false,
  hostInfo: { name: "widgetd-dev", version },
  displayModes: ["inline", "pip", "fullscreen"],
  capabilities: (csp, permissions) => ({
    openLinks: {},
    serverTools: {},
    serverResources: {},
    logging: {},
    message: { text: {} },
    updateModelContext: { text: {} },
    downloadFile: {},
    sandbox: { csp: (csp ?? {}) as any, permissions: (permissions ?? {}) as any },
  }),
});

/**
 * claudeStyles: Claude's warm palette and larger radii, the variables where
 * its host context differs most visibly from the generic one (as observed in
 * production and recorded by sunpeak's Claude host, 2026-05).
 */
const claudeStyles: StyleOverrides = {
  light: {
    "--color-background-primary": "#ffffff",
    "--color-background-secondary": "#f5f4ed",
    "--color-background-tertiary": "#faf9f5",
    "--color-text-primary": "#141413",
    "--color-text-secondary": "#3d3d3a",
    "--color-text-tertiary": "#73726c",
    "--border-radius-md": "8px",
    "--border-radius-lg": "10px",
    "--border-width-regular": "0.5px",
  },
  dark: {
    "--color-background-primary": "#30302e",
    "--color-background-secondary": "#262624",
    "--color-background-tertiary": "#141413",
    "--color-text-primary": "#faf9f5",
    "--color-text-secondary": "#c2c0b6",
    "--color-text-tertiary": "#9c9a92",
    "--border-radius-md": "8px",
    "--border-radius-lg": "10px",
    "--border-width-regular": "0.5px",
  },
};

/** hostProfile returns the profile of a host name (aliases allowed); unknown names get mcp-apps. */
export function hostProfile(name: string | null, version: string): HostProfile {
  const n = (name && hostAliases[name]) || name;
  switch (n) {
    case "chatgpt":
      return {
        ...generic(version),
        name: "chatgpt",
        openai: true,
        hostInfo: { name: "chatgpt", version: "0.0.1" },
        capabilities: (csp) => ({
          openLinks: {},
          serverTools: {},
          serverResources: {},
          logging: {},
          updateModelContext: {},
          message: {},
          sandbox: { csp: (csp ?? {}) as any, permissions: { microphone: {} } },
        }),
      };
    case "chatgpt-legacy":
      return { ...generic(version), name: "chatgpt-legacy", ui: false, openai: true, hostInfo: { name: "chatgpt", version: "legacy" } };
    case "claude":
      return {
        ...generic(version),
        name: "claude",
        hostInfo: { name: "Claude", version: "1.0.0" },
        displayModes: ["inline", "fullscreen"],
        styles: claudeStyles,
        capabilities: (csp) => ({
          openLinks: {},
          downloadFile: {},
          serverTools: { listChanged: true },
          serverResources: { listChanged: true },
          logging: {},
          updateModelContext: { text: {}, image: {} },
          message: { text: {} },
          sandbox: { csp: (csp ?? {}) as any },
        }),
      };
  }
  return generic(version);
}

/**
 * claudeDomainProblem says why Claude would not render a widget declaring
 * ui.domain, or "" when it would. Claude accepts only its hash domain; the
 * assets package rewrites ui.domain per client (assets.ClaudeDomain), so a
 * server answering through it is fine whatever widget.json declares.
 */
export function claudeDomainProblem(domain: unknown): string {
  if (typeof domain !== "string" || domain === "") return "";
  if (/^(https:\/\/)?[0-9a-f]{32}\.claudemcpcontent\.com$/.test(domain)) return "";
  return `Claude renders no iframe for ui.domain "${domain}": it accepts only sha256(connector URL)[:32].claudemcpcontent.com. widgetd's assets handler rewrites ui.domain for Claude clients (assets.ClaudeDomain); a server that sends the manifest's _meta unchanged must drop ui.domain or use that value.`;
}
