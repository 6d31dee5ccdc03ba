// useStore re-renders a component whenever a Store changes.
import { useEffect, useState } from "preact/hooks";
import type { Store } from "../store";

/** useStore returns the store's value and re-renders on every change,
 * including a change made between the render and the subscription (effects
 * run after paint; a build event can arrive in between). */
export function useStore<T extends object>(store: Store<T>): T {
  const [, setTick] = useState(0);
  const rendered = store.value;
  useEffect(() => {
    const off = store.subscribe(() => setTick((n) => n + 1));
    if (store.value !== rendered) setTick((n) => n + 1);
    return off;
  }, [store]);
  return rendered;
}
