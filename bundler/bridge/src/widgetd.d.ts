declare module "widgetd" {
  export const widget: {
    readonly host: "chatgpt" | "mcp-apps" | "standalone";
    onToolResult(cb: (result: { structuredContent?: Record<string, unknown> }) => void): () => void;
  };
  export default widget;
}
