// The bridge's sources against the declarations widget authors get
// (src/widgetd.d.ts): every value a declared module exports must exist in
// the implementation with a type assignable to the declared one. The types
// are declared once, in widgetd.d.ts, and the sources import them from
// there, so a declared type the code does not fit fails in the sources. tsc
// checks this file (strict) in scripts/tsc and bundler/bridge's
// TestDeclarationsMatchBridge; a declaration that promises another
// signature than the code has fails here.
import * as impl from "../src/index";
import * as implReact from "../src/react";
import * as implTools from "../src/tools";
import * as implChatGPT from "../src/chatgpt";
import * as implMCP from "../src/mcp";
import "../src/appadapter";
import type * as Decl from "widgetd";
import type * as DeclReact from "widgetd/react";
import type * as DeclTools from "widgetd/tools";
import type * as DeclChatGPT from "widgetd/chatgpt";
import type * as DeclMCP from "widgetd/mcp";

/** Same is true when A and B are each assignable to the other. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

// Values: the implementation's module satisfies each declared module.
export const values: typeof Decl = impl;
export const hooks: typeof DeclReact = implReact;
export const tools: typeof DeclTools = implTools;
export const extras: typeof DeclChatGPT = implChatGPT;
export const mcp: typeof DeclMCP = implMCP;

// Parameters, exactly: a declared method is compared bivariantly above, so
// a declaration could take a wider or narrower argument than the code and
// still pass. Overloaded declarations (callTool, useToolInput,
// useToolOutput, useCallTool) are left to the assignability check above.
type Fn = (...args: any[]) => any;
/** The names of the functions whose parameter lists differ between D and I (an `any` member, widget.state, is no function). */
type ParamsDiffer<D, I, Skip extends string = never> = {
  [K in Exclude<keyof D & keyof I, Skip>]: 0 extends 1 & D[K] ? never : D[K] extends Fn ? I[K] extends Fn ? Same<Parameters<D[K]>, Parameters<I[K]>> extends true ? never : K : K : never;
}[Exclude<keyof D & keyof I, Skip>];
/** true when no member differs, else the names that do. */
type NoneDiffer<T> = [T] extends [never] ? true : T;
export const params: [
  NoneDiffer<ParamsDiffer<typeof Decl.widget, typeof impl.widget, "callTool">>,
  NoneDiffer<ParamsDiffer<typeof DeclReact, typeof implReact, "useToolInput" | "useToolOutput" | "useCallTool">>,
  NoneDiffer<ParamsDiffer<typeof DeclTools, typeof implTools>>,
  NoneDiffer<ParamsDiffer<typeof DeclChatGPT, typeof implChatGPT>>,
  NoneDiffer<ParamsDiffer<typeof DeclMCP, typeof implMCP>>,
] = [true, true, true, true, true];
