// TextField and NumberField: labelled inputs that report on change.

/** TextFieldProps: id is the input's element id. */
export interface TextFieldProps {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  placeholder?: string;
}

/** TextField renders a labelled text input; onChange fires on commit (change). */
export function TextField({ id, label, value, onChange, placeholder }: TextFieldProps) {
  return (
    <label class="field">
      <span class="field-label">{label}</span>
      <input id={id} type="text" value={value} placeholder={placeholder} spellcheck={false} onChange={(e) => onChange(e.currentTarget.value)} />
    </label>
  );
}

/** NumberFieldProps: min and max bound the value. */
export interface NumberFieldProps {
  id: string;
  label: string;
  value: number;
  min?: number;
  max?: number;
  step?: number;
  onChange: (value: number) => void;
}

/** NumberField renders a labelled number input; onChange gets the number on commit. */
export function NumberField({ id, label, value, min, max, step, onChange }: NumberFieldProps) {
  return (
    <label class="field">
      <span class="field-label">{label}</span>
      <input id={id} type="number" value={value} min={min} max={max} step={step} onChange={(e) => onChange(Number(e.currentTarget.value))} />
    </label>
  );
}
