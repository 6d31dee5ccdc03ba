// Time to first render, recorded inside the widget's own document for
// TestFirstRender (firstrender_test.go). Every matrix widget that shows the
// tool result imports this module first. It notes, as performance.now() (ms
// since this document's time origin), when the document finished loading
// (DOMContentLoaded: its module scripts ran) and when the tool result first
// showed in #output (the matrix result's structuredContent holds "temp").
//
// It also measures how long this page's thread could not run in between: a
// timer asks to fire every 5 ms, and each time it fires late, the lateness
// after the load counts as stalled (a busy CPU descheduling the page, or
// other work on the thread). A wait the bridge makes (a timer, an
// unanswered request) leaves the thread idle, so the timer fires on time and
// the wait does not count as stalled.
const record = ((window as any).firstRender = { loaded: -1, rendered: -1, stalled: 0 });
const tickMs = 5;
let lastTick = performance.now();
/** Adds the lateness of the gap from lastTick to now, as far as it lies after the load. */
function noteGap(now: number) {
  if (record.loaded >= 0) record.stalled += Math.max(0, now - Math.max(lastTick, record.loaded) - tickMs);
  lastTick = now;
}
function tick() {
  if (record.rendered >= 0) return; // the last gap ended at the render
  noteGap(performance.now());
  setTimeout(tick, tickMs);
}
setTimeout(tick, tickMs);
document.addEventListener("DOMContentLoaded", () => (record.loaded = performance.now()));
new MutationObserver((_, observer) => {
  if (document.getElementById("output")?.textContent?.includes('"temp"')) {
    record.rendered = performance.now();
    noteGap(record.rendered);
    observer.disconnect();
  }
}).observe(document, { subtree: true, childList: true, characterData: true });
