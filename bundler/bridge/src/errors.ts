// Typed errors of the widgetd bridge. Every failing bridge call rejects (or
// throws) a WidgetdError whose `code` says why, so a widget can branch on it.
// ErrorCode is declared once, in widgetd.d.ts (module "widgetd").
import type { ErrorCode } from "widgetd";

/** The single error type of the bridge. */
export class WidgetdError extends Error {
  // "declare": assigned in the constructor, so no class-field code is emitted.
  /** Machine-readable reason. */
  declare code: ErrorCode;
  /** The feature or JSON-RPC method involved. */
  declare feature: string;
  /** The host's JSON-RPC error object or result, when code is "host". */
  declare data?: unknown;
  constructor(code: ErrorCode, feature: string, message: string, data?: unknown) {
    super("widgetd: " + feature + ": " + message);
    this.name = "WidgetdError";
    this.code = code;
    this.feature = feature;
    this.data = data;
  }
}
