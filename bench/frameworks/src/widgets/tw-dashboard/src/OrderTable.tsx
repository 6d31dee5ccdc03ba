export type Order = { id: string; customer: string; total: number; status: "paid" | "pending" | "refunded" };

const badge: Record<Order["status"], string> = {
  paid: "bg-emerald-100 text-emerald-800",
  pending: "bg-amber-100 text-amber-800",
  refunded: "bg-slate-200 text-slate-700 line-through",
};

export function OrderTable({ orders }: { orders: Order[] }) {
  return (
    <table className="card mt-3 w-full table-auto border-collapse overflow-hidden text-left text-sm">
      <thead className="bg-slate-100 text-xs uppercase text-slate-500">
        <tr>
          <th className="px-3 py-2">Order</th>
          <th className="px-3 py-2">Customer</th>
          <th className="px-3 py-2 text-right">Total</th>
          <th className="px-3 py-2">Status</th>
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100">
        {orders.map((o) => (
          <tr key={o.id} className="odd:bg-white even:bg-slate-50">
            <td className="px-3 py-2 font-mono">{o.id}</td>
            <td className="px-3 py-2">{o.customer}</td>
            <td className="px-3 py-2 text-right tabular-nums">${o.total.toFixed(2)}</td>
            <td className="px-3 py-2">
              <span className={`rounded-md px-2 py-0.5 text-xs font-medium ${badge[o.status]}`}>{o.status}</span>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
