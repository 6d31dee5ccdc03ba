// React + ext-apps shape: the App class through ext-apps' React hook, a
// small list view and a button that calls a server tool.
import { useApp } from "@modelcontextprotocol/ext-apps/react";
import { StrictMode, useState } from "react";
import { createRoot } from "react-dom/client";
import "./style.css";

type Task = { id: string; title: string; done: boolean };

function Tasks() {
  const [tasks, setTasks] = useState<Task[]>([]);
  const { app, error } = useApp({
    appInfo: { name: "tasks-shape", version: "1.0.0" },
    capabilities: {},
    onAppCreated: (created) => {
      created.ontoolresult = (result) => {
        const content = result.structuredContent as { tasks?: Task[] } | undefined;
        setTasks(content?.tasks ?? []);
      };
    },
  });
  if (error) return <p className="error">{error.message}</p>;
  if (!app) return <p>Connecting…</p>;
  return (
    <main>
      <h1>Tasks ({tasks.filter((t) => t.done).length}/{tasks.length})</h1>
      <ul>
        {tasks.map((t) => (
          <li key={t.id} className={t.done ? "done" : ""}>{t.title}</li>
        ))}
      </ul>
      <button onClick={() => void app.callServerTool({ name: "list-tasks", arguments: {} })}>Reload</button>
    </main>
  );
}

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <Tasks />
  </StrictMode>,
);
