// Panel: a titled section of the inspector, with actions beside the title.
import type { ComponentChildren } from "preact";

/** PanelProps: actions are shown at the right of the title. */
export interface PanelProps {
  title: string;
  actions?: ComponentChildren;
  children: ComponentChildren;
  hint?: ComponentChildren;
}

/** Panel renders a section with a heading. */
export function Panel({ title, actions, hint, children }: PanelProps) {
  return (
    <section class="panel">
      <header class="panel-head">
        <h2>{title}</h2>
        {actions ? <div class="panel-actions">{actions}</div> : null}
      </header>
      {hint ? <p class="panel-hint">{hint}</p> : null}
      {children}
    </section>
  );
}
