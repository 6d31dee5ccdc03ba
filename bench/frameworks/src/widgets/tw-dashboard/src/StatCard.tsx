export function StatCard({ label, value, trend }: { label: string; value: string; trend: number }) {
  const tone = trend > 0 ? "text-emerald-600" : trend < 0 ? "text-rose-600" : "text-slate-400";
  return (
    <div className="card p-4 ring-1 ring-slate-200 transition hover:-translate-y-0.5 hover:shadow-md">
      <p className="text-xs uppercase tracking-wide text-slate-500">{label}</p>
      <p className="mt-1 text-3xl font-bold tabular-nums">{value}</p>
      <p className={`mt-2 text-sm ${tone}`}>{trend === 0 ? "flat" : `${trend > 0 ? "+" : ""}${trend}%`}</p>
    </div>
  );
}
