// JSON editing: parse an editor's text into an object, or say where it is
// wrong as line:col (1-based), for the inline error under each editor.

/** Parsed is an editor's text parsed: the value, or the error with its place. */
export type Parsed<T = Record<string, unknown>> = { ok: true; value: T } | { ok: false; error: string };

/** ContentBlock is one entry of a tool result's content (MCP's ContentBlock: text, image, …). */
export type ContentBlock = { type: string } & Record<string, unknown>;

/** positionToLineCol turns a character offset in text into 1-based line and column. */
export function positionToLineCol(text: string, pos: number): { line: number; col: number } {
  const before = text.slice(0, Math.max(0, Math.min(pos, text.length)));
  const lines = before.split("\n");
  return { line: lines.length, col: lines[lines.length - 1].length + 1 };
}

/** parseJson parses src, or says where and why it is not JSON. */
function parseJson(src: string): Parsed<unknown> {
  try {
    return { ok: true, value: JSON.parse(src) };
  } catch (e) {
    const msg = (e as Error).message;
    const m = /position (\d+)/.exec(msg);
    const where = m ? positionToLineCol(src, Number(m[1])) : positionToLineCol(src, src.length);
    const what = msg.replace(/\s*\(line \d+ column \d+\)/, "").replace(/ in JSON at position \d+/, "");
    return { ok: false, error: `${where.line}:${where.col}: ${what}` };
  }
}

/** parseJsonObject parses text ("" is {}) and requires a JSON object. */
export function parseJsonObject(text: string): Parsed {
  const parsed = parseJson(text.trim() === "" ? "{}" : text);
  if (!parsed.ok) return parsed;
  const value = parsed.value;
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return { ok: false, error: "1:1: must be a JSON object ({…})" };
  }
  return { ok: true, value: value as Record<string, unknown> };
}

/**
 * parseContentBlocks parses a tool result's content: "" is null (the
 * preview then makes one text block of the output, as the MCP SDKs do),
 * else a JSON array of blocks, each an object with a string "type".
 */
export function parseContentBlocks(text: string): Parsed<ContentBlock[] | null> {
  if (text.trim() === "") return { ok: true, value: null };
  const parsed = parseJson(text);
  if (!parsed.ok) return parsed;
  const value = parsed.value;
  if (!Array.isArray(value)) return { ok: false, error: '1:1: must be a JSON array of content blocks ([{"type": "text", "text": "…"}])' };
  const bad = value.findIndex((b) => b === null || typeof b !== "object" || Array.isArray(b) || typeof b.type !== "string");
  if (bad >= 0) return { ok: false, error: `block ${bad + 1}: must be an object with a string "type" ("text", "image", "resource_link", …)` };
  return { ok: true, value: value as ContentBlock[] };
}

/** pretty formats a value as the editors show it. */
export function pretty(v: unknown): string {
  return JSON.stringify(v ?? {}, null, 2);
}
