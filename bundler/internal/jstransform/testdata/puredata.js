// Top-level data and schemas in the shapes packages ship them: TypeScript
// enums, here and imported, and tables built from their members (the MCP
// SDK client, Rolldown output), zod schemas in one minified var statement (ext-apps), beside
// declarations whose evaluation does something. Strings ending in _KEPT
// must stay in a widget that uses status() and parseMessage(); those ending
// in _UNUSED must go (bundler's TestTreeShakingLikeRolldown).
import { z } from "zod/v4";
import * as codes from "./codes.js";
let Code = /* @__PURE__ */ function(Code$1) {
	Code$1[Code$1["Invalid"] = -32600] = "Invalid";
	Code$1[Code$1["Missing"] = -32601] = "Missing";
	return Code$1;
}({});
const LADDER = [
	{ rung: "shape", codes: [codes.Code.Invalid, -32e3], rationale: "LADDER_UNUSED" },
	{ rung: "method", codes: [codes.Code.Missing], rationale: `${codes.TAG}: LADDER_UNUSED` },
];
const STATUS = { [Code.Invalid]: 400, [Code.Missing]: 404, note: "STATUS_KEPT" };
const LIMITS = { max: Number.MAX_SAFE_INTEGER, tag: codes.TAG, iterate: Symbol.iterator, note: "LIMITS_UNUSED" };
var Base=z.object({id:z.string().describe("BASE_KEPT")}).passthrough(),Message=Base.extend({text:z.string().optional()}).describe("MESSAGE_KEPT"),Ping=z.object({method:z.literal("ping")}).describe("PING_UNUSED");
const Registered = z.object({}).meta({ id: "REGISTERED_KEPT" });
const Effect = (globalThis.effects = ["EFFECT_KEPT"]);
const Unknown = globalThis.unknownCall?.("UNKNOWN_KEPT");
var Later = z.string().describe("later");
Later = z.number();
const FromLater = Later.optional().describe("FROMLATER_KEPT");
const Spread = { ...codes, note: "SPREAD_KEPT" };
const Sum = codes.TAG + "SUM_KEPT";
export function status(code) { return STATUS[code] ?? 500; }
export function parseMessage(value) { return Message.parse(value); }
