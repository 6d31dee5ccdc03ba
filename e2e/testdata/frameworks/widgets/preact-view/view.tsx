import { useState } from "preact/hooks";

type Props = { toolOutput?: { title: string; items: string[] } };

export default function Checklist({ toolOutput }: Props) {
  const [done, setDone] = useState(0);
  if (!toolOutput) return <p>Loading…</p>;
  return (
    <div class="checklist">
      <h2 id="preact-view-title">{toolOutput.title}</h2>
      <ol>
        {toolOutput.items.map((it) => (
          <li class="preact-view-item">{it}</li>
        ))}
      </ol>
      <button id="preact-view-btn" onClick={() => setDone(done + 1)}>
        done {done}
      </button>
    </div>
  );
}
