import { render } from "preact";
import { useState } from "preact/hooks";

function App() {
  const [n, setN] = useState(1);
  return (
    <div>
      <h1 id="preact-title">Hello from Preact</h1>
      <button id="preact-btn" onClick={() => setN(n + 1)}>
        n = {n}
      </button>
    </div>
  );
}

render(<App />, document.getElementById("root")!);
