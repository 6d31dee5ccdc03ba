import { createSignal, For } from "solid-js";
import { render } from "solid-js/web";

function Counter(props: { items: string[] }) {
  const [count, setCount] = createSignal(0);
  return (
    <section>
      <h1 id="solid-title">Hello from Solid</h1>
      <ul>
        <For each={props.items}>{(item) => <li class="solid-item">{item}</li>}</For>
      </ul>
      <button id="solid-btn" onClick={() => setCount(count() + 1)}>
        Count {count()}
      </button>
    </section>
  );
}

render(() => <Counter items={["one", "two"]} />, document.getElementById("root")!);
