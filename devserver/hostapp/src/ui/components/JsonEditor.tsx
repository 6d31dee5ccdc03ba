// JsonEditor: a monospace text area for JSON (an object unless parse says
// otherwise), with the parse error (line:col) shown under it as the user types.
import { parseJsonObject, type Parsed } from "../../jsonparse";

/** JsonEditorProps: id is the textarea's id; its error element is id + "-err". */
export interface JsonEditorProps {
  id: string;
  label: string;
  value: string;
  rows?: number;
  /** placeholder is shown while the text is empty (what empty means). */
  placeholder?: string;
  /** parse checks the text; default a JSON object. */
  parse?: (text: string) => Parsed<unknown>;
  onInput: (text: string) => void;
}

/** JsonEditor renders the labelled textarea and its validation message. */
export function JsonEditor({ id, label, value, rows = 6, placeholder, parse = parseJsonObject, onInput }: JsonEditorProps) {
  const parsed = parse(value);
  const error = parsed.ok ? "" : parsed.error;
  return (
    <div class="json-editor">
      <label class="field-label" for={id}>
        {label}
      </label>
      <textarea id={id} class={error ? "invalid" : ""} rows={rows} spellcheck={false} value={value} placeholder={placeholder} aria-invalid={!!error} aria-describedby={id + "-err"} onInput={(e) => onInput(e.currentTarget.value)} />
      <div class="err" id={id + "-err"} role="status">
        {error}
      </div>
    </div>
  );
}
