// Button: the one button of the UI, in three looks.
import type { ComponentChildren, JSX } from "preact";

/** ButtonProps: variant "primary" for the main action, "ghost" for toolbar icons. */
export interface ButtonProps extends JSX.ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: "primary" | "secondary" | "ghost";
  small?: boolean;
  children?: ComponentChildren;
}

/** Button renders a <button type="button"> styled by variant. */
export function Button({ variant = "secondary", small, class: cls, children, ...rest }: ButtonProps) {
  const classes = ["btn", "btn-" + variant, small ? "btn-small" : "", (cls as string) || ""].filter(Boolean).join(" ");
  return (
    <button type="button" class={classes} {...rest}>
      {children}
    </button>
  );
}
