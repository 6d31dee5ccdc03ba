import { For, Show, createSignal } from "solid-js";

type Output = { queue: string[] };

export default function Queue(props: { toolOutput?: Output }) {
  const [picked, setPicked] = createSignal("none");
  return (
    <Show when={props.toolOutput} fallback={<p>Loading…</p>}>
      <h2 id="solid-view-title">{props.toolOutput!.queue.length} in the queue</h2>
      <ul>
        <For each={props.toolOutput!.queue}>
          {(name) => (
            <li class="solid-view-item" onClick={() => setPicked(name)}>
              {name}
            </li>
          )}
        </For>
      </ul>
      <p id="solid-view-picked">picked {picked()}</p>
    </Show>
  );
}
