// How each host frames a conversation: its name, the assistant's name, the
// composer's placeholder, the width of its message column.
import type { HostName } from "../hosts";

/** HostLook is what the conversation frame draws differently per host. */
export interface HostLook {
  product: string;
  assistant: string;
  composer: string;
  /** The host's message column width in CSS px. */
  column: number;
  note?: string;
}

/** hostLook returns the framing of a host. */
export function hostLook(host: HostName): HostLook {
  switch (host) {
    case "chatgpt":
      return { product: "ChatGPT", assistant: "ChatGPT", composer: "Ask anything", column: 768 };
    case "chatgpt-legacy":
      return { product: "ChatGPT", assistant: "ChatGPT", composer: "Ask anything", column: 768, note: "legacy: window.openai only" };
    case "claude":
      return { product: "Claude", assistant: "Claude", composer: "Reply to Claude…", column: 720 };
  }
  return { product: "MCP Apps host", assistant: "Assistant", composer: "Message the assistant", column: 760 };
}

/** hostOptions are the host menu's choices. */
export const hostOptions = [
  { value: "mcp-apps", label: "MCP Apps", title: "The generic MCP Apps host: the real AppBridge" },
  { value: "chatgpt", label: "ChatGPT", title: "Today's ChatGPT: ui/* and window.openai" },
  { value: "chatgpt-legacy", label: "ChatGPT (legacy)", title: "ChatGPT before ui/*: window.openai only" },
  { value: "claude", label: "Claude", title: "The AppBridge with Claude's host context, capabilities and ui.domain rule" },
];

/** userPrompt is the user message shown above the widget: the tool and its input. */
export function userPrompt(toolName: string, input: Record<string, unknown>): string {
  const parts = Object.entries(input)
    .slice(0, 4)
    .map(([k, v]) => `${k}: ${typeof v === "string" ? v : JSON.stringify(v)}`);
  return parts.length ? `Use ${toolName} with ${parts.join(", ")}` : `Use ${toolName}`;
}
