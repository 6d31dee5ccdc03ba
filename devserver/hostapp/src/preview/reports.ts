// CSP violations and uncaught errors from the widget frame: posted to the
// dev server, which traces them to their source line through the build's
// source maps, then logged and listed in the issues panel.
import { dev, logEntry, logStore, type Violation } from "../devstate";

/** traced posts a report and logs it with the answer's source position.
 * dev.pendingReports counts the reports still on their way, so widgetd test
 * can wait for none. */
export async function traced(base: string, kind: string, path: string, body: Record<string, unknown>): Promise<any> {
  dev.pendingReports++;
  let answer: any = null;
  try {
    const r = await fetch(base + path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    if (r.ok) answer = await r.json();
  } catch {
    /* logged with the bundle position */
  }
  logEntry("err", kind, answer?.source ? { ...body, source: answer.source } : body);
  dev.pendingReports--;
  return answer;
}

/** reportError logs an uncaught error from the frame, traced to its source line. */
export function reportError(base: string, widget: string, d: any) {
  const body = { widget, message: String(d.message || ""), file: String(d.file || ""), line: Number(d.line) || 0, column: Number(d.column) || 0 };
  void traced(base, "uncaught", "/_widgetd/error-report", body);
}

/** reportViolation traces a CSP violation and lists it once per directive and origin. */
export async function reportViolation(base: string, widget: string, host: string, v: any) {
  const body = {
    widget,
    host,
    directive: String(v.directive || ""),
    blockedURI: String(v.blockedURI || ""),
    sourceFile: String(v.sourceFile || ""),
    line: Number(v.line) || 0,
    column: Number(v.column) || 0,
    sample: String(v.sample || ""),
  };
  const advice: Violation = (await traced(base, "CSP violation", "/_widgetd/csp-report", body)) ?? { ...body, message: `${body.directive} blocked ${body.blockedURI}` };
  const key = (x: Violation) => `${x.directive}|${x.origin || x.blockedURI}`;
  if (dev.violations.some((x) => key(x) === key(advice))) return;
  dev.violations.push(advice);
  logStore.notify();
}

/** clearViolations empties the violations list (a new build of the widget). */
export function clearViolations() {
  dev.violations.length = 0;
  logStore.notify();
}
