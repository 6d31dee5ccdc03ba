// Toggle: a labelled switch (a real checkbox, styled).
import type { ComponentChildren } from "preact";

/** ToggleProps: id is the checkbox's element id. */
export interface ToggleProps {
  id: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  disabled?: boolean;
  title?: string;
  children: ComponentChildren;
}

/** Toggle renders a checkbox drawn as a switch, with its label. */
export function Toggle({ id, checked, onChange, disabled, title, children }: ToggleProps) {
  return (
    <label class={"toggle" + (disabled ? " is-disabled" : "")} title={title}>
      <input id={id} type="checkbox" role="switch" checked={checked} disabled={disabled} onChange={(e) => onChange(e.currentTarget.checked)} />
      <span class="toggle-track" aria-hidden="true">
        <span class="toggle-thumb" />
      </span>
      <span class="toggle-label">{children}</span>
    </label>
  );
}
