// Device presets: the list the dev server builds (page config "devices",
// fixture/devices.go, where each figure's source is cited).
import type { Device as WireDevice } from "./types";

/** Platform is the MCP Apps host context's platform. */
export type Platform = "web" | "desktop" | "mobile";

/**
 * Device is one preset as the page config sends it (devserver.Device, whose
 * type is generated into gen/wire.ts), narrowed to what devserver.Devices
 * always sets: a platform of the three, and both capabilities.
 */
export type Device = WireDevice & { platform: Platform; deviceCapabilities: { touch: boolean; hover: boolean } };

/** desktopOnly stands in when a page config has no devices (the dev server always sends them). */
const desktopOnly: Device[] = [
  { id: "desktop", label: "Desktop 1280×800", width: 1280, height: 800, platform: "web", deviceCapabilities: { touch: false, hover: true }, safeAreaInsets: { top: 0, right: 0, bottom: 0, left: 0 } },
];

/** devicesOf returns the presets to offer: the config's. */
export function devicesOf(list: WireDevice[] | null | undefined): Device[] {
  return Array.isArray(list) && list.length > 0 ? (list as Device[]) : desktopOnly;
}

/** findDevice returns the preset with id, or the first. */
export function findDevice(list: Device[], id: string | null | undefined): Device {
  return list.find((d) => d.id === id) || list[0];
}
