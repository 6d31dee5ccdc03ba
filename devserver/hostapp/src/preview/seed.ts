// The first settings of a preview: the URL's ?host=, ?csp=, ?theme=, ?mode=
// and ?device=, then a fixture's hostContext over them.
import { hostProfile } from "../hosts";
import { findDevice, type Device } from "../devices";
import type { HostContextFixture, PageConfig } from "../types";
import { deviceSettings, isMode, type Settings } from "./settings";

/** initialSettings are the settings a preview page opens with. */
export function initialSettings(cfg: PageConfig, params: URLSearchParams, devices: Device[]): Settings {
  const theme = params.get("theme") === "dark" ? "dark" : "light";
  const mode = params.get("mode");
  const device = findDevice(devices, params.get("device"));
  return {
    // ?host= takes the four names and the old "mcp" (now mcp-apps).
    host: hostProfile(params.get("host"), cfg.version).name,
    theme,
    mode: isMode(mode) ? mode : "inline",
    locale: "en-US",
    timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    maxHeight: 600,
    noCSP: params.get("csp") === "none",
    forward: !!cfg.mcp,
    ...(deviceSettings(device) as Required<Pick<Settings, "deviceId" | "platform" | "touch" | "hover" | "insets">>),
  };
}

/** seedSettings are the settings a fixture's hostContext sets (only the fields it names). */
export function seedSettings(hc: HostContextFixture | undefined, devices: Device[]): Partial<Settings> {
  if (!hc) return { userAgent: undefined, container: undefined };
  const p: Partial<Settings> = {};
  if (hc.device) Object.assign(p, deviceSettings(findDevice(devices, hc.device)));
  if (hc.theme === "light" || hc.theme === "dark") p.theme = hc.theme;
  if (isMode(hc.displayMode)) p.mode = hc.displayMode;
  if (hc.locale) p.locale = hc.locale;
  if (hc.timeZone) p.timeZone = hc.timeZone;
  const maxHeight = hc.maxHeight ?? hc.containerDimensions?.maxHeight;
  if (maxHeight) p.maxHeight = maxHeight;
  if (hc.platform === "web" || hc.platform === "desktop" || hc.platform === "mobile") p.platform = hc.platform;
  if (hc.deviceCapabilities) {
    if (typeof hc.deviceCapabilities.touch === "boolean") p.touch = hc.deviceCapabilities.touch;
    if (typeof hc.deviceCapabilities.hover === "boolean") p.hover = hc.deviceCapabilities.hover;
  }
  // The dev server sends all four insets (Go's SafeAreaInsets, gen/wire.ts).
  if (hc.safeAreaInsets) p.insets = { ...hc.safeAreaInsets };
  // No control sets these two, so a fixture without them clears them.
  p.userAgent = hc.userAgent;
  const { height, width, maxWidth } = hc.containerDimensions ?? {};
  p.container = height || width || maxWidth ? { height, width, maxWidth } : undefined;
  return p;
}
