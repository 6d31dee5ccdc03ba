// Benchmark input modelled on the official budget-allocator example: chart.js
// (every registerable, as that example registers them) plus the widgetd bridge.
import { Chart, registerables } from "chart.js";
import { widget } from "widgetd";
import "./mcp-app.css";

Chart.register(...registerables);

interface Category {
  name: string;
  share: number;
  color: string;
}

interface BudgetData {
  totals?: number[];
  stages?: string[];
  categories?: Category[];
  history?: { month: string; spend: Record<string, number> }[];
}

const budgetSelect = document.getElementById("budget-selector") as HTMLSelectElement;
const stageSelect = document.getElementById("stage-selector") as HTMLSelectElement;
const sliders = document.getElementById("sliders-container")!;
const status = document.getElementById("status-bar")!;

let total = 100_000;
let categories: Category[] = [];

const doughnut = new Chart(document.getElementById("budget-chart") as HTMLCanvasElement, {
  type: "doughnut",
  data: { labels: [], datasets: [{ data: [], backgroundColor: [] }] },
  options: { plugins: { legend: { display: false } }, animation: { duration: 200 } },
});

const history = new Chart(document.getElementById("history-chart") as HTMLCanvasElement, {
  type: "line",
  data: { labels: [], datasets: [] },
  options: { interaction: { mode: "index", intersect: false }, scales: { y: { beginAtZero: true } } },
});

const money = (n: number) => n.toLocaleString(undefined, { style: "currency", currency: "USD", maximumFractionDigits: 0 });

function render() {
  doughnut.data.labels = categories.map((c) => c.name);
  doughnut.data.datasets[0].data = categories.map((c) => c.share * total);
  (doughnut.data.datasets[0] as { backgroundColor: string[] }).backgroundColor = categories.map((c) => c.color);
  doughnut.update();
  sliders.replaceChildren(
    ...categories.map((c, i) => {
      const row = document.createElement("label");
      row.className = "slider";
      const input = Object.assign(document.createElement("input"), { type: "range", min: "0", max: "100", value: String(Math.round(c.share * 100)) });
      const out = document.createElement("output");
      out.textContent = money(c.share * total);
      input.addEventListener("input", () => {
        categories[i].share = Number(input.value) / 100;
        out.textContent = money(categories[i].share * total);
        doughnut.update();
        void widget.callTool("set-allocation", { category: c.name, share: categories[i].share });
      });
      row.append(c.name, input, out);
      return row;
    }),
  );
  const used = categories.reduce((s, c) => s + c.share, 0);
  status.textContent = `${Math.round(used * 100)}% of ${money(total)} allocated`;
}

function options(select: HTMLSelectElement, values: string[]) {
  select.replaceChildren(...values.map((v) => Object.assign(document.createElement("option"), { value: v, textContent: v })));
}

widget.onToolResult((result: { structuredContent?: BudgetData }) => {
  const data = result.structuredContent ?? {};
  categories = (data.categories ?? []).map((c) => ({ ...c }));
  options(budgetSelect, (data.totals ?? [total]).map(String));
  options(stageSelect, data.stages ?? []);
  const months = data.history ?? [];
  history.data.labels = months.map((m) => m.month);
  history.data.datasets = categories.map((c) => ({
    label: c.name,
    data: months.map((m) => m.spend[c.name] ?? 0),
    borderColor: c.color,
    tension: 0.3,
  }));
  history.update();
  render();
});

budgetSelect.addEventListener("change", () => {
  total = Number(budgetSelect.value);
  render();
  void widget.callTool("set-total-budget", { total });
});
stageSelect.addEventListener("change", () => void widget.callTool("set-company-stage", { stage: stageSelect.value }));
