import { createRoot } from "react-dom/client";
import { Badge } from "./Badge";
import "./index.css";

function App() {
  return (
    <main className="p-4 bg-surface rounded-card">
      <h1 id="tw-title" className="text-brand text-2xl font-bold tracking-tight">Tailwind in a widget</h1>
      <p id="tw-body" className="mt-2 text-sm text-slate-600 hocus:underline">Styled by utilities found in the module graph.</p>
      <Badge label="v4" />
    </main>
  );
}

createRoot(document.getElementById("root")!).render(<App />);
