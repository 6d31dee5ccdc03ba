// Store: a small observable value shared by the widget host (plain TS) and
// the Preact UI, so both read the same settings without copying them.

/** Store holds a value; set merges a partial value and notifies listeners. */
export class Store<T extends object> {
  private listeners = new Set<() => void>();
  constructor(public value: T) {}

  /** set merges patch into the value and tells every listener. */
  set(patch: Partial<T>) {
    this.value = { ...this.value, ...patch };
    this.notify();
  }

  /** notify tells every listener the value changed (after an in-place edit). */
  notify() {
    for (const l of [...this.listeners]) l();
  }

  /** subscribe adds a listener and returns its removal. */
  subscribe(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }
}
