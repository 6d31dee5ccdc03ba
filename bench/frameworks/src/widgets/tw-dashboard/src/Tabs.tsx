export function Tabs({ tabs, current, onChange }: { tabs: string[]; current: string; onChange: (t: string) => void }) {
  return (
    <nav className="mt-4 flex gap-1 border-b border-slate-200">
      {tabs.map((t) => (
        <button
          key={t}
          onClick={() => onChange(t)}
          className={`-mb-px border-b-2 px-3 py-1.5 text-sm capitalize ${t === current ? "border-brand-500 text-brand-700" : "border-transparent text-slate-500 hover:text-slate-700"}`}
        >
          {t}
        </button>
      ))}
    </nav>
  );
}
