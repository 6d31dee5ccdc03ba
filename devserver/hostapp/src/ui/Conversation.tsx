// Conversation: the widget as the chosen host shows it — a user message, the
// assistant's turn with the widget inline, the composer — inside a screen
// as wide as the device preset. Fullscreen and picture-in-picture take the
// widget out of the thread within that screen, with a bar and an exit
// button (#exit-mode; Escape does the same). The frame element (#frame-wrap)
// is never re-created: the controller owns the iframe in it.
import { useCallback } from "preact/hooks";
import type { PreviewController } from "../preview/controller";
import { parseJsonObject } from "../jsonparse";
import { findDevice } from "../devices";
import { useStore } from "./useStore";
import { hostLook, userPrompt } from "./hostlook";

function Avatar({ host }: { host: string }) {
  return <span class={"avatar avatar-" + host} aria-hidden="true" />;
}

/** Conversation renders the device screen with the thread and #stage. */
export function Conversation({ ctl }: { ctl: PreviewController }) {
  const s = useStore(ctl.settings);
  const tool = useStore(ctl.tool);
  const st = useStore(ctl.state);
  const look = hostLook(s.host);
  const device = findDevice(ctl.devices, s.deviceId);
  const input = parseJsonObject(tool.input);
  const title = st.widget?.title || ctl.name;
  const attach = useCallback((el: HTMLDivElement | null) => ctl.attach(el), [ctl]);
  const insets = s.insets;
  const screenStyle = {
    "--device-w": device.width + "px",
    "--device-h": device.height + "px",
    "--column": look.column + "px",
    "--safe-top": insets.top + "px",
    "--safe-right": insets.right + "px",
    "--safe-bottom": insets.bottom + "px",
    "--safe-left": insets.left + "px",
  } as any;
  const exitLabel = s.mode === "pip" ? "Exit picture-in-picture ✕" : "Exit fullscreen ✕";
  return (
    <div class={"device-screen host-" + s.host + " platform-" + s.platform + (device.width < 600 ? " is-narrow" : "")} style={screenStyle} data-device={device.id}>
      {insets.top > 0 ? (
        <div class="safe-top" aria-hidden="true">
          <span>9:41</span>
          <span class="safe-notch" />
          <span>●●●</span>
        </div>
      ) : null}
      {insets.bottom > 0 ? <div class="safe-bottom" aria-hidden="true" /> : null}
      <div class="chat-header">
        <span class="chat-product">{look.product}</span>
        {look.note ? <span class="chat-note">{look.note}</span> : null}
      </div>
      <div class="thread">
        <div class="thread-column">
          <div class="turn turn-user">
            <div class="bubble">{userPrompt(tool.toolName || ctl.name, input.ok ? input.value : {})}</div>
          </div>
          <div class="turn turn-assistant">
            <Avatar host={s.host} />
            <div class="assistant-body">
              <div class="assistant-name">{look.assistant}</div>
              <div class="tool-chip">
                <span class="tool-chip-dot" aria-hidden="true" />
                Used <strong>{title}</strong> · {tool.toolName || ctl.name}
                {st.source.kind === "server" ? <span class="tool-chip-source"> · from the server</span> : null}
              </div>
              <section id="stage" class={"stage mode-" + s.mode} aria-label={"Widget " + title}>
                <div class="stage-bar">
                  <span class="stage-title">{title}</span>
                  <button id="exit-mode" class="exit-mode" type="button" title="Back to inline (Escape)" hidden={s.mode === "inline"} onClick={() => ctl.leaveMode()}>
                    {exitLabel}
                  </button>
                </div>
                <div id="frame-wrap" class={"frame-wrap" + (st.widget?.meta?.ui?.prefersBorder === false ? "" : " bordered")} ref={attach} />
                {st.missing && st.source.kind === "local" ? <p class="empty bad">{`widget "${ctl.name}" is not in the current build`}</p> : null}
              </section>
              {s.mode !== "inline" ? <p class="stage-placeholder">{s.mode === "pip" ? "Playing in picture-in-picture." : "Open in fullscreen."}</p> : null}
            </div>
          </div>
        </div>
      </div>
      <div class="composer" aria-hidden="true">
        <span class="composer-input">{look.composer}</span>
        <span class="composer-send" />
      </div>
    </div>
  );
}
