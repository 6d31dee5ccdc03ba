// Device presets: the list the dev server builds (page config "devices",
// devserver/devices.go), or the fallback below when it sends none.
import type { Insets } from "./types";

/** Platform is the MCP Apps host context's platform. */
export type Platform = "web" | "desktop" | "mobile";

/** Device is one preset (the shared contract of the brief). */
export interface Device {
  id: string;
  label: string;
  width: number;
  height: number;
  platform: Platform;
  deviceCapabilities: { touch: boolean; hover: boolean };
  safeAreaInsets: Insets;
}

const noInsets: Insets = { top: 0, right: 0, bottom: 0, left: 0 };

/** fallbackDevices is used only when the page config has no devices. */
export const fallbackDevices: Device[] = [
  { id: "desktop", label: "Desktop", width: 1280, height: 800, platform: "web", deviceCapabilities: { touch: false, hover: true }, safeAreaInsets: noInsets },
  { id: "tablet", label: "Tablet", width: 768, height: 1024, platform: "mobile", deviceCapabilities: { touch: true, hover: false }, safeAreaInsets: { top: 24, right: 0, bottom: 20, left: 0 } },
  { id: "mobile", label: "Mobile", width: 390, height: 844, platform: "mobile", deviceCapabilities: { touch: true, hover: false }, safeAreaInsets: { top: 47, right: 0, bottom: 34, left: 0 } },
];

/** devicesOf returns the presets to offer: the config's, else the fallback. */
export function devicesOf(list: Device[] | undefined): Device[] {
  return Array.isArray(list) && list.length > 0 ? list : fallbackDevices;
}

/** findDevice returns the preset with id, or the first. */
export function findDevice(list: Device[], id: string | null | undefined): Device {
  return list.find((d) => d.id === id) || list[0];
}
