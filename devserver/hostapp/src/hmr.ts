// The preview page's side of the edit loop (devserver/hmr.go has the frame's
// side and why code reaches the frame by postMessage: the widget's strict CSP
// is never loosened). After a rebuild, hotUpdate compares the widget's new
// document with the one in the frame:
//   - only <style> texts differ: the frame swaps them (no reload);
//   - scripts differ and the frame runs React Refresh: the frame runs the new
//     bundle in place and React keeps component state;
//   - anything else: the caller reloads the frame; the scroll position
//     (reported by the frame as the user scrolls) is restored after the load,
//     and the ChatGPT host's widget state (window.openai.setWidgetState) is
//     sent again with the globals. Tool input, result and host context are
//     the page's own and are sent again by the mount.
// Small exported functions, so the page's UI code calls them in a few places.

/** A document cut in the parts an edit can change on its own. */
export interface DocParts {
  hash: string;
  styles: string[];
  scripts: string[];
  rest: string;
}

interface FrameMemory {
  scroll: { x: number; y: number } | null;
  widgetState: { set: boolean; value: unknown };
}

// What the page remembers per widget across reloads of its frame.
const memory = new Map<string, FrameMemory>();
// The parts of the document each widget's frame holds.
const mountedParts = new Map<string, DocParts>();
const pending = new Map<number, (ok: boolean) => void>();
// Whether each widget's frame runs React Refresh (its hmr-ready message;
// until a reloaded frame's arrives, the last one's: a wrong "true" only costs
// a refused script, then a reload).
const refreshing = new Map<string, boolean>();
let seq = 0;

function remember(name: string): FrameMemory {
  let m = memory.get(name);
  if (!m) {
    m = { scroll: null, widgetState: { set: false, value: null } };
    memory.set(name, m);
  }
  return m;
}

/** splitDocument cuts an HTML document into its inline styles, inline scripts and the rest. */
export function splitDocument(html: string, hash: string): DocParts {
  const doc = new DOMParser().parseFromString(html, "text/html");
  const styles: string[] = [];
  const scripts: string[] = [];
  doc.querySelectorAll("style").forEach((el) => {
    styles.push(el.textContent || "");
    el.textContent = "";
  });
  doc.querySelectorAll("script").forEach((el) => {
    // External scripts stay in "rest": a change to one reloads.
    if (el.hasAttribute("src")) return;
    scripts.push(el.textContent || "");
    el.textContent = "";
  });
  return { hash, styles, scripts, rest: doc.documentElement.outerHTML };
}

async function fetchParts(base: string, name: string): Promise<DocParts | null> {
  try {
    const r = await fetch(`${base}/_widgetd/doc/${encodeURIComponent(name)}`, { cache: "no-store" });
    if (!r.ok) return null;
    return splitDocument(await r.text(), r.headers.get("X-Widgetd-Hash") || "");
  } catch {
    return null;
  }
}

/**
 * noteMounted records the document a frame loaded (called on its load
 * event, so the fetch does not compete with the load), to compare the next
 * build with.
 */
export function noteMounted(base: string, name: string, hash: string): void {
  mountedParts.delete(name);
  void fetchParts(base, name).then((p) => {
    if (p && p.hash === hash) mountedParts.set(name, p);
  });
}

function post(frame: HTMLIFrameElement, origin: string, msg: Record<string, unknown>, timeoutMs: number): Promise<boolean> {
  const id = ++seq;
  return new Promise((resolve) => {
    pending.set(id, resolve);
    frame.contentWindow?.postMessage({ ...msg, id }, origin);
    setTimeout(() => pending.delete(id) && resolve(false), timeoutMs);
  });
}

const same = (a: string[], b: string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

// The build event lists at most this many changed files; a full list means
// there may be more.
const changedListMax = 5;

/**
 * stylesOnly reports whether a build's changed files (the build event's
 * "changed") are all plain stylesheets, so its scripts do the same as before
 * even where their text differs: esbuild's minified names can change from
 * one build to the next. A CSS module's class names are in the script.
 */
export function stylesOnly(changed: string[]): boolean {
  return changed.length > 0 && changed.length < changedListMax && changed.every((f) => /\.css$/i.test(f) && !/\.module\.css$/i.test(f));
}

/**
 * hotUpdate applies the build whose document has hash (and whose event
 * lists changed) to the live frame without a reload, and says how ("css"
 * or "js"), or null when the caller must reload it.
 */
export async function hotUpdate(frame: HTMLIFrameElement | null, origin: string, base: string, name: string, hash: string, changed: string[]): Promise<"css" | "js" | null> {
  const old = mountedParts.get(name);
  // A script change in a frame without React Refresh reloads: no need to
  // fetch the document to know.
  if (!frame || !old || (!stylesOnly(changed) && !refreshing.get(name))) return null;
  const next = await fetchParts(base, name);
  if (!next || next.hash !== hash || next.rest !== old.rest || next.styles.length !== old.styles.length) return null;
  const stylesChanged = !same(old.styles, next.styles);
  let how: "css" | "js";
  if (stylesOnly(changed) || same(old.scripts, next.scripts)) {
    if (!stylesChanged) how = "css";
    else if (await post(frame, origin, { widgetd: "hmr-css", styles: next.styles }, 1000)) how = "css";
    else return null;
  } else {
    const ok = await post(frame, origin, { widgetd: "hmr-js", styles: stylesChanged ? next.styles : null, scripts: next.scripts }, 3000);
    if (!ok) return null;
    how = "js";
  }
  mountedParts.set(name, next);
  return how;
}

/**
 * onFrameMessage takes the edit loop's messages from the widget frame
 * (results of hot updates, scroll positions) and notes the widget state a
 * ChatGPT-host widget sets; true when the message was the edit loop's alone.
 */
export function onFrameMessage(name: string, d: any): boolean {
  if (d.widgetd === "hmr-done") {
    const done = pending.get(d.id);
    pending.delete(d.id);
    done?.(!!d.ok);
    return true;
  }
  if (d.widgetd === "hmr-ready") {
    refreshing.set(name, !!d.refresh);
    return true;
  }
  if (d.widgetd === "hmr-scroll") {
    remember(name).scroll = { x: Number(d.x) || 0, y: Number(d.y) || 0 };
    return true;
  }
  if (d.widgetd === "openai" && d.method === "setWidgetState") {
    remember(name).widgetState = { set: true, value: d.args ?? null };
  }
  return false;
}

/** widgetState is the state the widget last set (window.openai.setWidgetState), else fallback. */
export function widgetState(name: string, fallback: unknown): unknown {
  const m = memory.get(name);
  return m && m.widgetState.set ? m.widgetState.value : fallback;
}

/** forget drops what the page remembers of a widget (another fixture was chosen). */
export function forget(name: string): void {
  memory.delete(name);
}

/** frameLoaded sends a reloaded frame back to the scroll position the user left. */
export function frameLoaded(frame: HTMLIFrameElement, origin: string, name: string): void {
  const s = memory.get(name)?.scroll;
  if (s && (s.x || s.y)) frame.contentWindow?.postMessage({ widgetd: "hmr-restore", x: s.x, y: s.y }, origin);
}
