import { useState } from "react";
import { StatCard } from "./StatCard";
import { OrderTable, type Order } from "./OrderTable";
import { Tabs } from "./Tabs";

const orders: Order[] = [
  { id: "A-1001", customer: "Ada Lovelace", total: 129.5, status: "paid" },
  { id: "A-1002", customer: "Grace Hopper", total: 42, status: "pending" },
  { id: "A-1003", customer: "Alan Turing", total: 310.25, status: "refunded" },
];

export function App() {
  const [tab, setTab] = useState("orders");
  return (
    <div className="min-h-screen bg-brand-50 p-4 font-display text-slate-800 dark:bg-slate-900 dark:text-slate-100">
      <header className="mb-4 flex items-center justify-between gap-2">
        <h1 className="text-2xl font-semibold tracking-tight text-brand-700">Store overview</h1>
        <button className="rounded-full bg-brand-500 px-3 py-1.5 text-sm font-medium text-white shadow hover:bg-brand-700 focus-visible:outline-2">
          Refresh
        </button>
      </header>
      <section className="grid grid-cols-1 gap-3 sm:grid-cols-3">
        <StatCard label="Revenue" value="$481.75" trend={12} />
        <StatCard label="Orders" value="3" trend={-4} />
        <StatCard label="Refunds" value="1" trend={0} />
      </section>
      <Tabs tabs={["orders", "customers"]} current={tab} onChange={setTab} />
      {tab === "orders" ? <OrderTable orders={orders} /> : <p className="mt-3 text-sm italic text-slate-500">No customers yet.</p>}
    </div>
  );
}
