// TopBar: the brand, where you are, and the page-wide controls.
import type { ComponentChildren } from "preact";
import type { PageConfig } from "../types";
import { StatusLine } from "./StatusLine";

/** TopBarProps: children are the controls shown at the right. */
export interface TopBarProps {
  cfg: PageConfig;
  crumb?: string;
  onMenu?: () => void;
  menuOpen?: boolean;
  children?: ComponentChildren;
}

/** TopBar renders the page header. */
export function TopBar({ cfg, crumb, onMenu, menuOpen, children }: TopBarProps) {
  return (
    <header class="topbar">
      <div class="topbar-start">
        {onMenu ? (
          <button id="toggle-sidebar" type="button" class="btn btn-ghost icon-btn menu-btn" aria-label="Widgets" aria-expanded={!!menuOpen} aria-controls="sidebar" onClick={onMenu}>
            ☰
          </button>
        ) : null}
        <a class="brand" href={cfg.base + "/"}>
          <img src={cfg.base + "/_widgetd/favicon.svg"} alt="" width={20} height={20} />
          <span>widgetd dev</span>
        </a>
        {crumb ? (
          <span class="crumb">
            <span aria-hidden="true">/</span> <strong>{crumb}</strong>
          </span>
        ) : (
          <span class="muted small">v{cfg.version}</span>
        )}
      </div>
      <div class="topbar-controls">{children}</div>
      <StatusLine />
    </header>
  );
}
