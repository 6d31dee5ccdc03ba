// Stand-in for ChatGPT's host runtime inside the widget iframe: defines
// window.openai (globals + methods, chatgpt-apps.md §1) before the widget's
// scripts run, from state kept by the host page (window.top.chatgptHost):
// its initial globals, and canned callTool results in chatgptHost.tools
// (a call without one is echoed).
(function () {
  var H = window.top.chatgptHost; // the host page, also behind a sandbox proxy
  var rec = function (m, a) { H.log.push({ t: m, p: JSON.parse(JSON.stringify(a === undefined ? null : a)) }); };
  var openai = Object.assign({
    toolInput: null, toolOutput: null, toolResponseMetadata: null, widgetState: null,
    theme: "light", displayMode: "inline", maxHeight: 600,
    safeArea: { insets: { top: 0, bottom: 0, left: 0, right: 0 } }, view: { mode: "inline" },
    userAgent: { device: { type: "desktop" }, capabilities: { hover: true, touch: false } }, locale: "en-US",
  }, H.initial || {});
  function set(p) {
    Object.assign(openai, p);
    window.dispatchEvent(new CustomEvent("openai:set_globals", { detail: { globals: p } }));
  }
  Object.assign(openai, {
    callTool: function (name, args) {
      rec("callTool", { name: name, args: args });
      var canned = H.tools && H.tools[name];
      return Promise.resolve(canned || { content: [{ type: "text", text: "called " + name }], structuredContent: { tool: name, echo: args } });
    },
    sendFollowUpMessage: function (a) { rec("sendFollowUpMessage", a); return Promise.resolve(); },
    openExternal: function (a) { rec("openExternal", a); },
    requestDisplayMode: function (a) { rec("requestDisplayMode", a); set({ displayMode: a.mode }); return Promise.resolve({ mode: a.mode }); },
    requestModal: function (a) { rec("requestModal", a); return Promise.resolve(); },
    requestClose: function () { rec("requestClose"); },
    notifyIntrinsicHeight: function (h) { rec("notifyIntrinsicHeight", h); },
    // ChatGPT keeps widgetState with the message: a reloaded widget gets it back.
    setWidgetState: function (s) { rec("setWidgetState", s); openai.widgetState = s; H.initial.widgetState = s; return Promise.resolve(); },
    uploadFile: function (f, o) { rec("uploadFile", { name: f.name, options: o === undefined ? null : o }); return Promise.resolve({ fileId: "file_1", fileName: f.name }); },
    selectFiles: function () { rec("selectFiles"); return Promise.resolve([{ fileId: "file_2", fileName: "b.png", mimeType: "image/png" }]); },
    setOpenInAppUrl: function (a) { rec("setOpenInAppUrl", a); return Promise.resolve(); },
    getFileDownloadUrl: function (a) { rec("getFileDownloadUrl", a); return Promise.resolve({ downloadUrl: "https://files.example/" + a.fileId }); },
  });
  H.set = set;
  window.openai = openai;
})();
