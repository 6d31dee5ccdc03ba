// The form the server panel generates from a tool's inputSchema: one field
// per top-level property of a simple type; anything else is edited as JSON.
// fieldErrors checks the arguments against the fields before a call, so a
// wrong value is named at its field and the call is not made.

/** FormField is one generated field. */
export interface FormField {
  name: string;
  kind: "string" | "number" | "integer" | "boolean" | "enum";
  required: boolean;
  description?: string;
  options?: string[];
  minimum?: number;
  maximum?: number;
}

/** formFields lists the properties of schema the form can edit. */
export function formFields(schema: any): FormField[] {
  const props = schema && typeof schema === "object" ? schema.properties : null;
  if (!props || typeof props !== "object") return [];
  const required: string[] = Array.isArray(schema.required) ? schema.required : [];
  const out: FormField[] = [];
  for (const [name, p] of Object.entries<any>(props)) {
    if (!p || typeof p !== "object") continue;
    const base = { name, required: required.includes(name), description: p.description, minimum: num(p.minimum), maximum: num(p.maximum) };
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

const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : undefined);

/** fieldErrors maps each field whose value is wrong to what is wrong: a required one missing, a value not of the field's type, out of its bounds or not one of its options. */
export function fieldErrors(fields: FormField[], values: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of fields) {
    const v = values[f.name];
    const problem = v === undefined || v === "" ? (f.required ? "required" : "") : valueError(f, v);
    if (problem) out[f.name] = problem;
  }
  return out;
}

// valueError says what is wrong with a present value of f, "" when nothing.
function valueError(f: FormField, v: unknown): string {
  switch (f.kind) {
    case "string":
      return typeof v === "string" ? "" : "must be text";
    case "boolean":
      return typeof v === "boolean" ? "" : "must be true or false";
    case "enum":
      return f.options!.includes(v as string) ? "" : "must be one of " + f.options!.join(", ");
  }
  if (typeof v !== "number" || !Number.isFinite(v)) return "must be a number";
  if (f.kind === "integer" && !Number.isInteger(v)) return "must be a whole number";
  if (f.minimum !== undefined && v < f.minimum) return "must be at least " + f.minimum;
  if (f.maximum !== undefined && v > f.maximum) return "must be at most " + f.maximum;
  return "";
}
