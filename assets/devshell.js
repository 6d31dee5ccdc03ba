// The dev shell: the script of the document a Registry in dev mode returns
// from resources/read (assets/dev.go; contract in docs/manifest.md). It keeps
// the current `widgetd dev` build of one widget in an iframe (srcdoc, so the
// widget runs on the host's sandbox origin under the host's CSP) and swaps it
// on every rebuild, without the host reading the resource again:
// - it follows GET <dev>/_widgetd/events and fetches
//   GET <dev>/_widgetd/doc/<widget> whenever the widget's hash changes;
// - it relays the host's postMessage traffic (MCP Apps ui/* JSON-RPC, or
//   anything else) both ways, renumbering the widget's request ids so a
//   swapped-out document never gets a newer one's answers;
// - it answers a swapped-in document's ui/initialize with the host's first
//   answer (host context changes merged in) and replays the last tool input
//   and result, so the new code renders what the old one showed;
// - in ChatGPT it hands the host's window.openai to the widget document and
//   relays openai:set_globals;
// - it sizes the iframe to the widget (size-changed, or its document height).
(function () {
  "use strict";
  var cfg = JSON.parse(document.querySelector('meta[name="widgetd-dev"]').content);
  var P = window.parent;
  var frame = document.getElementById("widgetd-dev");
  var status = document.getElementById("widgetd-dev-status");
  var REPLAY = ["ui/notifications/tool-input-partial", "ui/notifications/tool-input", "ui/notifications/tool-result", "ui/notifications/tool-cancelled"];
  var gen = 0; // generation of the widget document in the frame
  var want = ""; // hash of the build last asked for
  var init = null; // the host's ui/initialize result
  var local = false; // this generation's ui/initialize was answered here
  var last = {}; // the latest host notification of each REPLAY method
  var pending = {}; // forwarded request id -> {id, gen, init}
  var seq = 0;

  function show(msg) {
    status.textContent = msg;
    status.hidden = !msg;
  }
  function rpc(d) {
    return d !== null && typeof d === "object" && d.jsonrpc === "2.0";
  }
  function toWidget(d) {
    try {
      frame.contentWindow.postMessage(d, "*");
    } catch (e) {}
  }
  function fit(h) {
    if (h > 0) frame.style.height = Math.ceil(h) + "px";
  }

  function fromHost(d) {
    if (rpc(d) && d.method && d.id === undefined) {
      if (d.method === "ui/notifications/host-context-changed" && init) {
        init.hostContext = Object.assign({}, init.hostContext || {}, d.params || {});
      } else if (REPLAY.indexOf(d.method) >= 0) {
        last[d.method] = d;
      }
    } else if (rpc(d) && !d.method && d.id !== undefined && pending[d.id]) {
      var p = pending[d.id];
      delete pending[d.id];
      if (p.gen !== gen) return;
      if (p.init && d.result) init = JSON.parse(JSON.stringify(d.result));
      d = Object.assign({}, d, { id: p.id });
    }
    toWidget(d);
  }

  function fromWidget(d) {
    if (rpc(d) && d.method && d.id !== undefined) {
      if (d.method === "ui/initialize" && init) {
        local = true;
        toWidget({ jsonrpc: "2.0", id: d.id, result: init });
        return;
      }
      seq++;
      pending[seq] = { id: d.id, gen: gen, init: d.method === "ui/initialize" };
      d = Object.assign({}, d, { id: seq });
    } else if (rpc(d) && d.method === "ui/notifications/initialized" && local) {
      REPLAY.forEach(function (m) {
        if (last[m]) toWidget(last[m]);
      });
      return;
    } else if (rpc(d) && d.method === "ui/notifications/size-changed" && d.params) {
      fit(d.params.height);
    }
    P.postMessage(d, "*");
  }

  addEventListener("message", function (e) {
    if (e.source === P) fromHost(e.data);
    else if (e.source === frame.contentWindow) fromWidget(e.data);
  });
  addEventListener("openai:set_globals", function (e) {
    try {
      var w = frame.contentWindow;
      w.dispatchEvent(new w.CustomEvent("openai:set_globals", { detail: e.detail }));
    } catch (x) {}
  });
  frame.addEventListener("load", function () {
    try {
      var root = frame.contentDocument.documentElement;
      var measure = function () {
        fit(root.getBoundingClientRect().height);
      };
      new ResizeObserver(measure).observe(root);
      measure();
    } catch (x) {} // an opaque origin: size-changed notifications size the frame
  });

  // load writes a widget document into the frame, with the host's
  // window.openai (ChatGPT) handed over before any widget code runs.
  function load(doc) {
    gen++;
    local = false;
    document.documentElement.setAttribute("data-widgetd-dev-gen", String(gen));
    var pre = "<script>try{if(parent.openai&&!window.openai)window.openai=parent.openai}catch(e){}</" + "script>";
    var m = /<head(\s[^>]*)?>/i.exec(doc) || /<!doctype[^>]*>/i.exec(doc);
    var at = m ? m.index + m[0].length : 0;
    frame.srcdoc = doc.slice(0, at) + pre + doc.slice(at);
  }

  function fetchDoc() {
    var asked = want;
    fetch(cfg.dev + "/_widgetd/doc/" + encodeURIComponent(cfg.widget), { cache: "no-store" })
      .then(function (r) {
        if (!r.ok) {
          return r.text().then(function (t) {
            throw new Error("HTTP " + r.status + ": " + t);
          });
        }
        return r.text();
      })
      .then(function (doc) {
        if (asked !== want) return; // a newer build is on its way
        show("");
        load(doc);
      })
      .catch(function (e) {
        want = "";
        show("widgetd dev: cannot load widget " + cfg.widget + " from " + cfg.dev + ": " + e.message);
      });
  }

  var events = new EventSource(cfg.dev + "/_widgetd/events");
  events.addEventListener("build", function (e) {
    var ev;
    try {
      ev = JSON.parse(e.data);
    } catch (x) {
      return;
    }
    if (!ev) return;
    if (!ev.ok) {
      show("widgetd dev: build failed (the last good build stays)\n" + (ev.diagnostics || []).map(function (d) {
        return d.text;
      }).join("\n"));
      return;
    }
    var w = (ev.widgets || []).filter(function (x) {
      return x.name === cfg.widget;
    })[0];
    if (!w) {
      show("widgetd dev: the dev build at " + cfg.dev + " has no widget " + cfg.widget);
      return;
    }
    if (w.hash !== want) {
      want = w.hash;
      fetchDoc();
    } else {
      show("");
    }
  });
  events.onerror = function () {
    if (!gen) show("widgetd dev: waiting for " + cfg.dev + " (start `widgetd dev`; behind a tunnel, with --public-url " + cfg.dev + ")");
  };
})();
