// widgetd/chatgpt: ChatGPT's extras over window.openai, typed and
// feature-detected. Only bundled when a widget imports "widgetd/chatgpt".
// Each call rejects with WidgetdError "unsupported" where the host lacks it
// (every MCP Apps host without window.openai, older ChatGPT clients).
import { WidgetdError } from "./errors";
// The public types, declared once for widget authors and for this module in
// widgetd.d.ts (module "widgetd/chatgpt").
import type { Extra, FileRef, ModalOptions, View } from "widgetd/chatgpt";

const openai = (): any => (window as any).openai;

/** Whether the host offers an extra (window.openai has that function). */
export function has(extra: Extra): boolean {
  return typeof openai()?.[extra] === "function";
}
function call<T>(extra: Extra, ...args: unknown[]): Promise<T> {
  if (!has(extra)) return Promise.reject(new WidgetdError("unsupported", extra, "window.openai." + extra + " is not offered by this host"));
  return Promise.resolve().then(() => openai()[extra](...args));
}

/** Lets the user pick files from their ChatGPT library. */
export const selectFiles = (): Promise<FileRef[]> => call("selectFiles");
/** Uploads a file; {library: true} also saves it to the user's library. */
export const uploadFile = (file: File, options?: { library?: boolean }): Promise<FileRef> => call("uploadFile", file, options);
/** A temporary URL for a file the widget uploaded, selected or was given. */
export const getFileDownloadUrl = (fileId: string): Promise<{ downloadUrl: string }> => call("getFileDownloadUrl", { fileId });
/** Opens a modal with this (or another registered) template; it reads params from view(). */
export const requestModal = (options: ModalOptions = {}): Promise<void> => call("requestModal", options);
/** Asks ChatGPT to close the widget. */
export const requestClose = (): Promise<void> => call("requestClose");
/** Overrides the fullscreen "Open in <App>" target. */
export const setOpenInAppUrl = (href: string): Promise<void> => call("setOpenInAppUrl", { href });
/** Starts Instant Checkout with a checkout session; resolves with the order. */
export const requestCheckout = <O = Record<string, unknown>>(session: Record<string, unknown>): Promise<O> => call("requestCheckout", session);
/** Sends a follow-up message; scrollToBottom defaults to true in ChatGPT. */
export const sendFollowUpMessage = (prompt: string, options?: { scrollToBottom?: boolean }): Promise<void> =>
  call("sendFollowUpMessage", { prompt, ...options });
/** ChatGPT's view global (mode, and a modal's params), if the host has one. */
export const view = (): View | undefined => openai()?.view ?? undefined;
