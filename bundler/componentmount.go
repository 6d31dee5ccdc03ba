package bundler

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/widgetd/widgetd/bundler/internal/config"
)

// The mount widgetd generates for a component entry (componententry.go).
// The component gets the tool data as props, the way the widgetd/react
// hooks give it, and again whenever it changes: toolInput, toolOutput (the
// result's structuredContent), toolResult, hostContext, theme, displayMode
// and widgetState. Hook libraries (widgetd/react, or a framework's own
// hooks over window.openai) work inside it as in any mounted component.

// componentRuntime is the part of every generated mount that reads the
// bridge: the props object and one subscription to every change.
const componentRuntime = `import { widget as __w } from "widgetd";
const __props = () => { const c = __w.hostContext || {}; return { toolInput: __w.toolInput, toolOutput: __w.toolOutput, toolResult: __w.toolResult, hostContext: __w.hostContext, theme: c.theme, displayMode: c.displayMode, widgetState: __w.state }; };
const __subscribe = (cb) => { const offs = [__w.onToolInput(cb), __w.onToolResult(cb), __w.onHostContextChanged(cb), __w.onStateChanged(cb)]; return () => offs.forEach((off) => off && off()); };
`

// componentMounts holds, per framework, the imports and the code that
// mounts __C into __el; __WRAP__ is where the providers wrap the component.
var componentMounts = map[string]string{
	frameworkReact: `import { createElement as __h, useState as __useState, useEffect as __useEffect } from "react";
import { createRoot as __createRoot } from "react-dom/client";
function WidgetdRoot() { const [p, set] = __useState(__props); __useEffect(() => { set(__props()); return __subscribe(() => set(__props())); }, []); const __inner = __h(__C, p); return __WRAP__; }
__createRoot(__el).render(__h(WidgetdRoot));
`,
	frameworkPreact: `import { h as __h, render as __render } from "preact";
import { useState as __useState, useEffect as __useEffect } from "preact/hooks";
function WidgetdRoot() { const [p, set] = __useState(__props); __useEffect(() => { set(__props()); return __subscribe(() => set(__props())); }, []); const __inner = __h(__C, p); return __WRAP__; }
__render(__h(WidgetdRoot), __el);
`,
	frameworkSolid: `import { createSignal as __createSignal, createComponent as __cc } from "solid-js";
import { render as __render } from "solid-js/web";
__render(() => { const [p, set] = __createSignal(__props()); __subscribe(() => set(__props())); const props = {}; for (const k of Object.keys(__props())) Object.defineProperty(props, k, { get: () => p()[k], enumerable: true }); const __inner = __cc(__C, props); return __WRAP__; }, __el);
`,
	frameworkVue: `import { createApp as __createApp, h as __h, reactive as __reactive } from "vue";
const __s = __reactive(__props());
__subscribe(() => Object.assign(__s, __props()));
const __declared = (c) => { const p = c && c.props; return Array.isArray(p) ? p : p ? Object.keys(p) : []; };
const __app = __createApp({ render: () => { const keep = {}; for (const k of __declared(__C)) if (k in __s) keep[k] = __s[k]; return __h(__C, keep); } });
__app.provide("widgetd", __s);
__WRAP____app.mount(__el);
`,
	frameworkSvelte: `import { mount as __mount } from "svelte";
import { createSubscriber as __createSubscriber } from "svelte/reactivity";
const __track = __createSubscriber((update) => __subscribe(update));
const __p = {};
for (const k of Object.keys(__props())) Object.defineProperty(__p, k, { get: () => { __track(); return __props()[k]; }, enumerable: true });
__mount(__C, { target: __el, props: __p });
`,
}

// componentMountSource is the virtual entry of a component entry: the
// bridge, the entry module, and the generated mount of ce's framework.
func (b *Builder) componentMountSource(w *widget, ce componentEntry) string {
	var sb strings.Builder
	sb.WriteString("import \"widgetd\";\n")
	q, _ := json.Marshal("./" + filepath.Base(w.Entry))
	fmt.Fprintf(&sb, "import * as __m from %s;\n", q)
	wrap := "__inner"
	for i := len(w.Config.Provider) - 1; i >= 0; i-- {
		p, _ := config.ParseProvider(w.Config.Provider[i].Use)
		mod := p.Module
		if strings.HasPrefix(mod, "./") || strings.HasPrefix(mod, "../") {
			mod = filepath.Join(w.Dir, filepath.FromSlash(mod))
		}
		mq, _ := json.Marshal(mod)
		name := fmt.Sprintf("__P%d", i)
		fmt.Fprintf(&sb, "import { %s as %s } from %s;\n", p.Export, name, mq)
		props := w.Config.Provider[i].PropsJS()
		switch ce.framework {
		case frameworkVue:
			wrap = fmt.Sprintf("__app.use(%s, %s);\n", name, props) + strings.TrimPrefix(wrap, "__inner")
		case frameworkSolid:
			wrap = fmt.Sprintf("__cc(%s, { ...%s, get children() { return %s; } })", name, props, wrap)
		default:
			wrap = fmt.Sprintf("__h(%s, %s, %s)", name, props, wrap)
		}
	}
	if ce.framework == frameworkVue && wrap == "__inner" {
		wrap = ""
	}
	sb.WriteString(componentRuntime)
	eq, _ := json.Marshal(ce.export)
	fmt.Fprintf(&sb, "const __C = __m[%s];\n", eq)
	fmt.Fprintf(&sb, "const __el = document.getElementById(%s);\n", b.mountTarget(w))
	sb.WriteString(strings.Replace(componentMounts[ce.framework], "__WRAP__", wrap, 1))
	return sb.String()
}

// mountTarget is the quoted id of the element a generated mount renders
// into: widget.json "root", else "root" (the default shell provides the id
// the bundle looks up by this literal).
func (b *Builder) mountTarget(w *widget) string {
	id := w.Config.Root
	if id == "" {
		id = "root"
	}
	q, _ := json.Marshal(id)
	return string(q)
}

// componentEntryError is the build error of a component entry widgetd
// cannot mount as configured, or "".
func componentEntryError(w *widget, ce componentEntry) string {
	if ce.framework == frameworkSvelte && len(w.Config.Provider) > 0 {
		return fmt.Sprintf("widget %q: \"provider\" in %s wraps React, Preact and Solid components (and installs Vue plugins); a Svelte component has no provider component: remove \"provider\" and wrap the component in a .svelte file of your own (<Provider><App /></Provider>), then make that file the entry", w.Config.Name, w.ConfigFile)
	}
	return ""
}
