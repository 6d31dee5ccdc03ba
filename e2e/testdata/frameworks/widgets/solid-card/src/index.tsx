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

// The list's items, one module each, imported with the widget (Vite's
// import.meta.glob, eager).
const itemModules = import.meta.glob<{ default: string }>("./items/*.ts", { eager: true });
const items = Object.values(itemModules).map((module) => module.default);

render(() => <Counter items={items} />, document.getElementById("root")!);
