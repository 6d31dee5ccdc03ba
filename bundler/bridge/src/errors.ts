// Typed errors of the widgetd bridge. Every failing bridge call rejects (or
// throws) a WidgetdError whose `code` says why, so a widget can branch on it.

/** Why a bridge call failed. */
export type ErrorCode =
  /** The current host does not offer this feature (see widget.supports). */
  | "unsupported"
  /** No host at all: the page was opened directly in a browser. */
  | "no-host"
  /** The host did not answer a request within the configured timeout. */
  | "timeout"
  /** The host answered with a JSON-RPC error or an `isError` result. */
  | "host";

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
