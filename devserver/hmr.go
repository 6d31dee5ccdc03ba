package devserver

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/evanw/esbuild/pkg/api"
)

// The edit loop (docs/dev.md, "Edits"). After a rebuild the preview page
// (hostapp/src/hmr.ts) compares the widget's new document with the one in
// its frame and, instead of reloading it:
//
//   - swaps the <style> texts when only styles changed;
//   - with React Refresh (react-refresh and @babel/core installed in the
//     project), runs the new bundle in the live document, where the runtime
//     below updates the mounted components in place (bundler/refresh.go);
//   - else reloads the frame, then restores the scroll position; the tool
//     input and result, host context and widget state are the page's and are
//     sent again.
//
// How code reaches the frame: the page posts the new script text to the
// frame, and hmrScript adds it as an inline <script type="module">. The
// widget's CSP is never loosened: script-src of the spec CSP always holds
// 'unsafe-inline' (cspgen), which allows an inline script a page script
// inserts, and postMessage needs no directive. (Scripts from the preview
// origin would be allowed by the dev CSP too, which lists it in
// resourceDomains, but that path does not exist on a real host's sandbox
// and would be one more fetch.) Nothing here is in a built widget: the
// sandbox origin appends these scripts to the documents it serves.

// hmrScript is appended to every widget document the sandbox origin serves.
// Classic scripts at the end of the document run before the widget's module
// scripts (deferred), so it sees the document's own <style> elements and
// nothing the widget added. It answers the preview page's messages:
// hmr-css (new style texts), hmr-js (new style and script texts, run with
// React Refresh) and hmr-restore (a scroll position to return to, applied
// as the content grows, until reached, 3 s or the user scrolls); it
// reports the scroll position (hmr-scroll) as the user scrolls, and once
// loaded whether React Refresh runs in the document (hmr-ready), so the
// page reloads a document that cannot take a script at once.
const hmrScript = `<script>(function(){var P=window.parent,own=[].slice.call(document.querySelectorAll("style")),pend=0,restoring=null;` +
	`function s(d){try{P.postMessage(d,"*")}catch(e){}}` +
	`function css(t){if(!t)return true;if(t.length!==own.length)return false;for(var i=0;i<t.length;i++)if(own[i].textContent!==t[i])own[i].textContent=t[i];return true}` +
	`var R=function(){return window.__widgetdRefresh};` +
	`window.__widgetdHmrDone=function(id){if(id!==pend)return;pend=0;var r=R(),u=null;try{u=r.perform()}catch(e){return s({widgetd:"hmr-done",id:id,ok:false,error:String(e&&e.message||e)})}` +
	`s({widgetd:"hmr-done",id:id,ok:true,updated:u?u.updatedFamilies.size:0})};` +
	`addEventListener("error",function(e){if(pend){var id=pend;pend=0;s({widgetd:"hmr-done",id:id,ok:false,error:String(e.message)})}});` +
	`function js(d){var r=R();if(!r||!r.active())return s({widgetd:"hmr-done",id:d.id,ok:false,error:"no React Refresh in this document"});` +
	`if(!css(d.styles))return s({widgetd:"hmr-done",id:d.id,ok:false,error:"the stylesheets changed in number"});pend=d.id;` +
	`d.scripts.forEach(function(t,i){var e=document.createElement("script");e.type="module";` +
	`e.textContent=t+(i===d.scripts.length-1?"\n;window.__widgetdHmrDone("+d.id+");":"");document.head.appendChild(e)})}` +
	`var tick=0;addEventListener("scroll",function(){if(tick)return;tick=requestAnimationFrame(function(){tick=0;var e=document.scrollingElement||document.documentElement;s({widgetd:"hmr-scroll",x:e.scrollLeft,y:e.scrollTop})})},true);` +
	`function restore(x,y){var end=Date.now()+3000;function go(){if(restoring!==go)return;var e=document.scrollingElement||document.documentElement;e.scrollLeft=x;e.scrollTop=y;` +
	`if((Math.abs(e.scrollTop-y)<1&&Math.abs(e.scrollLeft-x)<1)||Date.now()>end){restoring=null;o.disconnect()}}` +
	`var o=new MutationObserver(go);restoring=go;o.observe(document,{subtree:true,childList:true,characterData:true,attributes:true});` +
	`["wheel","touchstart","keydown"].forEach(function(n){addEventListener(n,function(){restoring=null;o.disconnect()},{once:true})});go();addEventListener("resize",go)}` +
	`addEventListener("load",function(){var r=R();s({widgetd:"hmr-ready",refresh:!!(r&&r.active())})});` +
	`addEventListener("message",function(e){var d=e.data;if(e.source!==P||!d)return;` +
	`if(d.widgetd==="hmr-css")s({widgetd:"hmr-done",id:d.id,ok:css(d.styles)});` +
	`else if(d.widgetd==="hmr-js")js(d);` +
	`else if(d.widgetd==="hmr-restore")restore(+d.x||0,+d.y||0)})})();</script>`

// refreshRuntimeSource is the entry of the React Refresh runtime script: it
// hooks into React before the widget's bundle loads React (the runtime
// must be first to install __REACT_DEVTOOLS_GLOBAL_HOOK__) and exposes what
// the transformed modules (bundler/refresh.go) and hmrScript call.
const refreshRuntimeSource = `import * as R from "react-refresh/runtime";
R.injectIntoGlobalHook(window);
// Counts the React renderers that can refresh (a development react-dom).
var hook = window.__REACT_DEVTOOLS_GLOBAL_HOOK__, renderers = 0, inject = hook.inject;
hook.inject = function (r) {
  if (r && typeof r.scheduleRefresh === "function") renderers++;
  return inject.apply(this, arguments);
};
window.__widgetdRefresh = {
  register: R.register,
  signature: R.createSignatureFunctionForTransform,
  perform: R.performReactRefresh,
  active: function () { return renderers > 0; },
};
`

// reactRefresh finds React, react-refresh and @babel/core where the widgets
// resolve packages from (node_modules in the widgets folder or a folder
// above it) and builds the runtime script: "" when the project lacks one of
// them, an error when the runtime does not build.
func reactRefresh(widgetsDir string) (string, error) {
	have := func(pkg string) bool {
		for d := widgetsDir; ; d = filepath.Dir(d) {
			if st, err := os.Stat(filepath.Join(d, "node_modules", filepath.FromSlash(pkg), "package.json")); err == nil && !st.IsDir() {
				return true
			}
			if filepath.Dir(d) == d {
				return false
			}
		}
	}
	for _, pkg := range []string{"react", "react-refresh", "@babel/core"} {
		if !have(pkg) {
			return "", nil
		}
	}
	res := api.Build(api.BuildOptions{
		Stdin:             &api.StdinOptions{Contents: refreshRuntimeSource, ResolveDir: widgetsDir, Sourcefile: "widgetd-refresh-runtime.js", Loader: api.LoaderJS},
		Bundle:            true,
		Write:             false,
		Format:            api.FormatIIFE,
		Platform:          api.PlatformBrowser,
		Define:            map[string]string{"process.env.NODE_ENV": `"development"`},
		MinifyWhitespace:  true,
		MinifySyntax:      true,
		MinifyIdentifiers: true,
		LogLevel:          api.LogLevelSilent,
	})
	if len(res.Errors) > 0 {
		return "", fmt.Errorf("the react-refresh runtime did not build: %s", res.Errors[0].Text)
	}
	if len(res.OutputFiles) != 1 {
		return "", errors.New("the react-refresh runtime did not build")
	}
	// Inline: "</script" cannot occur in it unescaped.
	code := strings.ReplaceAll(string(res.OutputFiles[0].Contents), "</script", `<\/script`)
	return "<script>" + code + "</script>", nil
}

// editScripts are the scripts appended to a widget document for the edit
// loop: with React Refresh, its runtime and the widget's vendor script (the
// npm packages its bundle leaves out, bundler/refresh.go); then hmrScript.
func (s *Server) editScripts(vendors map[string]string, widget string) []byte {
	var b strings.Builder
	b.WriteString(s.refreshRuntime)
	if v, ok := vendors[widget]; ok {
		b.WriteString("<script>")
		b.WriteString(strings.ReplaceAll(v, "</script", `<\/script`))
		b.WriteString("</script>")
	}
	b.WriteString(hmrScript)
	return []byte(b.String())
}
