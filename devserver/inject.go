package devserver

import (
	"bytes"

	"github.com/widgetd/widgetd/internal/displaypath"
)

// reporterScript runs first in every widget document served by the sandbox
// origin (dev only). It forwards securitypolicyviolation events and
// uncaught errors to the preview page with postMessage: the widget's CSP is
// untouched (inline scripts are allowed by the spec CSP), and posting needs
// no connect-src. Messages carry no "jsonrpc" key, so the ext-apps
// PostMessageTransport ignores them. It also answers the preview page's
// probes (which CSS selectors match, the visible text, the document's
// height, its viewport size and its look: the root's inline style (where
// hosts' style variables land), class and theme, the body's colours and
// font) for `widgetd test`, and on request freezes animations, transitions
// and the caret so its screenshots repeat. A freezing probe is answered
// after two animation frames (or 1 s, when frames are not running), so a
// screenshot taken on its answer shows the frozen document painted. Escape pressed while focus is in the widget is
// forwarded (escape), so the page leaves fullscreen or pip as it does for
// Escape on the page, unless the widget took the key (preventDefault, as
// a dialog closing on Escape does); the check waits a task, because the
// widget's own window listeners run after this one.
const reporterScript = `<script>(function(){var P=window.parent;function s(d){try{P.postMessage(d,"*")}catch(e){}}` +
	`addEventListener("securitypolicyviolation",function(e){s({widgetd:"csp",directive:e.effectiveDirective||e.violatedDirective,blockedURI:e.blockedURI,sourceFile:e.sourceFile,line:e.lineNumber,column:e.columnNumber,sample:e.sample||"",disposition:e.disposition})});` +
	`addEventListener("error",function(e){if(e.message)s({widgetd:"error",message:String(e.message),file:e.filename,line:e.lineno,column:e.colno})});` +
	`addEventListener("keydown",function(e){if(e.key==="Escape")setTimeout(function(){if(!e.defaultPrevented)s({widgetd:"escape"})})});` +
	`addEventListener("unhandledrejection",function(e){var r=e.reason;s({widgetd:"error",message:"unhandled rejection: "+String(r&&r.message||r)})});` +
	`addEventListener("message",function(e){var d=e.data;if(e.source!==P||!d||d.widgetd!=="probe")return;` +
	`if(d.freeze&&!window.__widgetdFrozen){window.__widgetdFrozen=1;var st=document.createElement("style");` +
	`st.textContent="*,*::before,*::after{animation-duration:0s!important;animation-delay:0s!important;animation-iteration-count:1!important;transition:none!important;caret-color:transparent!important}";` +
	`(document.head||document.documentElement).appendChild(st);` +
	`if(document.getAnimations)document.getAnimations().forEach(function(a){try{a.finish()}catch(x){a.cancel()}})}` +
	`function answer(){var f=[];(d.selectors||[]).forEach(function(q){try{f.push(!!document.querySelector(q))}catch(x){f.push(false)}});` +
	`s({widgetd:"probe-result",id:d.id,text:document.body?document.body.innerText:"",found:f,` +
	`ready:document.readyState==="complete"&&(!document.fonts||document.fonts.status==="loaded"),height:document.documentElement.scrollHeight,` +
	`viewportWidth:innerWidth,viewportHeight:innerHeight,` +
	`look:(function(){var r=document.documentElement,b=document.body,c=b?getComputedStyle(b):null;` +
	`return [r.getAttribute("style")||"",r.className,r.getAttribute("data-theme")||"",c?c.color+"|"+c.backgroundColor+"|"+c.fontFamily+"|"+c.fontSize:""].join("~")})()})}` +
	`if(!d.freeze)return answer();var done=0;function once(){if(!done){done=1;answer()}}` +
	`requestAnimationFrame(function(){requestAnimationFrame(once)});setTimeout(once,1000)});})();</script>`

// openaiScript installs window.openai (chatgpt-apps.md §1) in the widget
// frame when the preview runs as the ChatGPT host. The initial globals come
// from the URL fragment (never sent to a server); method calls and global
// updates travel by postMessage to and from the preview page, which logs and
// answers them. It also reports the document height, as ChatGPT's runtime
// sizes its iframe to the content.
const openaiScript = `<script>(function(){var P=window.parent,pend={},seq=0,g={};` +
	`try{if(location.hash.length>1)g=JSON.parse(decodeURIComponent(location.hash.slice(1)))}catch(e){}` +
	`function call(m,a){return new Promise(function(res,rej){var id=++seq;pend[id]={res:res,rej:rej};P.postMessage({widgetd:"openai",id:id,method:m,args:a===undefined?null:a},"*")})}` +
	`function fire(m,a){P.postMessage({widgetd:"openai",method:m,args:a===undefined?null:a},"*")}` +
	`var o={toolInput:{},toolOutput:null,toolResponseMetadata:null,widgetState:null,theme:"light",displayMode:"inline",maxHeight:600,` +
	`safeArea:{insets:{top:0,bottom:0,left:0,right:0}},view:{mode:"inline"},userAgent:{device:{type:"desktop"},capabilities:{hover:true,touch:false}},locale:"en-US"};` +
	`for(var k in g)o[k]=g[k];` +
	`function set(gl){for(var k in gl)o[k]=gl[k];dispatchEvent(new CustomEvent("openai:set_globals",{detail:{globals:gl}}))}` +
	`addEventListener("message",function(e){if(e.source!==P)return;var d=e.data;if(!d||typeof d!=="object")return;` +
	`if(d.widgetd==="openai-reply"&&pend[d.id]){var p=pend[d.id];delete pend[d.id];if(d.error)p.rej(new Error(d.error));else p.res(d.result)}` +
	`else if(d.widgetd==="openai-set")set(d.globals||{})});` +
	`o.callTool=function(n,a){return call("callTool",{name:n,args:a||{}})};` +
	`o.sendFollowUpMessage=function(a){return call("sendFollowUpMessage",a).then(function(){})};` +
	`o.openExternal=function(a){fire("openExternal",a)};` +
	`o.requestDisplayMode=function(a){return call("requestDisplayMode",a)};` +
	`o.requestModal=function(a){return call("requestModal",a||{}).then(function(){})};` +
	`o.requestClose=function(){fire("requestClose")};` +
	`o.notifyIntrinsicHeight=function(h){fire("notifyIntrinsicHeight",h)};` +
	`o.setWidgetState=function(s){o.widgetState=s;return call("setWidgetState",s).then(function(){})};` +
	`o.uploadFile=function(f,opt){return call("uploadFile",{name:f&&f.name,type:f&&f.type,size:f&&f.size,options:opt||null})};` +
	`o.getFileDownloadUrl=function(a){return call("getFileDownloadUrl",a)};` +
	`o.setOpenInAppUrl=function(a){return call("setOpenInAppUrl",a).then(function(){})};` +
	`window.openai=o;` +
	`var last=0;function h(){var v=Math.ceil(document.documentElement.getBoundingClientRect().height);if(v!==last){last=v;fire("height",v)}}` +
	`function start(){h();if(window.ResizeObserver)new ResizeObserver(h).observe(document.documentElement)}` +
	`if(document.readyState==="loading")addEventListener("DOMContentLoaded",start);else start()})();</script>`

// injectScripts puts scripts first in the document, so they run before any
// widget code: right after the <head> tag when the first 4 KiB hold one,
// else after the doctype, else at the very start. Minified documents may
// have no <head> tag; a script before the first element lands in the
// implied head.
func injectScripts(doc []byte, scripts ...string) []byte {
	var ins []byte
	for _, s := range scripts {
		ins = append(ins, s...)
	}
	at := 0
	lower := bytes.ToLower(doc[:min(len(doc), 4096)])
	if i := bytes.Index(lower, []byte("<head")); i >= 0 {
		if j := bytes.IndexByte(lower[i:], '>'); j >= 0 {
			at = i + j + 1
		}
	} else if i := bytes.Index(lower, []byte("<!doctype")); i >= 0 {
		if j := bytes.IndexByte(lower[i:], '>'); j >= 0 {
			at = i + j + 1
		}
	}
	out := make([]byte, 0, len(doc)+len(ins))
	out = append(out, doc[:at]...)
	out = append(out, ins...)
	return append(out, doc[at:]...)
}

// relPath shows p relative to the working directory when it is below it.
func relPath(p string) string { return displaypath.Show(p) }
