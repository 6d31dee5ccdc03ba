// JSON editing: parse an editor's text into an object, or say where it is
// wrong as line:col (1-based), for the inline error under each editor.

/** Parsed is an editor's text parsed: the object, or the error with its place. */
export type Parsed = { ok: true; value: Record<string, unknown> } | { ok: false; error: string };

/** positionToLineCol turns a character offset in text into 1-based line and column. */
export function positionToLineCol(text: string, pos: number): { line: number; col: number } {
  const before = text.slice(0, Math.max(0, Math.min(pos, text.length)));
  const lines = before.split("\n");
  return { line: lines.length, col: lines[lines.length - 1].length + 1 };
}

/** parseJsonObject parses text ("" is {}) and requires a JSON object. */
export function parseJsonObject(text: string): Parsed {
  const src = text.trim() === "" ? "{}" : text;
  let value: unknown;
  try {
    value = JSON.parse(src);
  } catch (e) {
    const msg = (e as Error).message;
    const m = /position (\d+)/.exec(msg);
    const where = m ? positionToLineCol(src, Number(m[1])) : positionToLineCol(src, src.length);
    const what = msg.replace(/\s*\(line \d+ column \d+\)/, "").replace(/ in JSON at position \d+/, "");
    return { ok: false, error: `${where.line}:${where.col}: ${what}` };
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return { ok: false, error: "1:1: must be a JSON object ({…})" };
  }
  return { ok: true, value: value as Record<string, unknown> };
}

/** pretty formats a value as the editors show it. */
export function pretty(v: unknown): string {
  return JSON.stringify(v ?? {}, null, 2);
}
