// Select: a labelled native <select> (native for keyboard and touch access).

/** Option is one choice of a Select. */
export interface Option {
  value: string;
  label: string;
  title?: string;
}

/** SelectProps: id is the element id the tests and labels use. */
export interface SelectProps {
  id: string;
  label: string;
  value: string;
  options: Option[];
  onChange: (value: string) => void;
  /** Show the label to screen readers only. */
  hideLabel?: boolean;
  title?: string;
}

/** Select renders a label and a select; onChange gets the chosen value. */
export function Select({ id, label, value, options, onChange, hideLabel, title }: SelectProps) {
  return (
    <label class={"field field-select" + (hideLabel ? " field-compact" : "")} title={title}>
      <span class={hideLabel ? "sr-only" : "field-label"}>{label}</span>
      <select id={id} value={value} onChange={(e) => onChange(e.currentTarget.value)}>
        {options.map((o) => (
          <option key={o.value} value={o.value} title={o.title}>
            {o.label}
          </option>
        ))}
      </select>
    </label>
  );
}
