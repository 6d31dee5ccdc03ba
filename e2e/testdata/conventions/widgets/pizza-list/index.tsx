import { useSyncExternalStore } from "react";
import { createRoot } from "react-dom/client";
import { motion } from "framer-motion";
import "../index.css";
import "./styles.css";

type Output = { places?: string[] } | null | undefined;

// The hook OpenAI's Apps SDK examples use: window.openai globals, updated by
// the "openai:set_globals" event.
function useToolOutput(): Output {
  return useSyncExternalStore(
    (onChange) => {
      window.addEventListener("openai:set_globals", onChange);
      return () => window.removeEventListener("openai:set_globals", onChange);
    },
    () => (window as unknown as { openai?: { toolOutput?: Output } }).openai?.toolOutput,
  );
}

function App() {
  const places = useToolOutput()?.places ?? [];
  return (
    <div className="theme-card">
      <h1 className="shared-title">Pizza spots</h1>
      <motion.ul id="places" initial={{ opacity: 0 }} animate={{ opacity: 1 }} transition={{ duration: 0.2 }}>
        {places.map((p) => (
          <li key={p}>{p}</li>
        ))}
      </motion.ul>
    </div>
  );
}

const root = document.getElementById("pizza-list-root");
if (!root) throw new Error("Missing pizza-list-root element");
createRoot(root).render(<App />);
