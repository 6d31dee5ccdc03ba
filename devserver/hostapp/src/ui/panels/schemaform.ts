// The form the server panel generates from a tool's inputSchema: one field
// per top-level property of a simple type; anything else is edited as JSON.

/** FormField is one generated field. */
export interface FormField {
  name: string;
  kind: "string" | "number" | "integer" | "boolean" | "enum";
  required: boolean;
  description?: string;
  options?: string[];
}

/** formFields lists the properties of schema the form can edit. */
export function formFields(schema: any): FormField[] {
  const props = schema && typeof schema === "object" ? schema.properties : null;
  if (!props || typeof props !== "object") return [];
  const required: string[] = Array.isArray(schema.required) ? schema.required : [];
  const out: FormField[] = [];
  for (const [name, p] of Object.entries<any>(props)) {
    if (!p || typeof p !== "object") continue;
    const base = { name, required: required.includes(name), description: p.description };
    if (Array.isArray(p.enum) && p.enum.every((v: unknown) => typeof v === "string")) out.push({ ...base, kind: "enum", options: p.enum });
    else if (["string", "number", "integer", "boolean"].includes(p.type)) out.push({ ...base, kind: p.type });
  }
  return out;
}

/** coerce turns a form field's text into the JSON value its type wants ("" drops it). */
export function coerce(f: FormField, raw: string | boolean): unknown {
  if (f.kind === "boolean") return !!raw;
  const s = String(raw);
  if (s === "") return undefined;
  if (f.kind === "number" || f.kind === "integer") {
    const n = Number(s);
    return Number.isFinite(n) ? n : s;
  }
  return s;
}
