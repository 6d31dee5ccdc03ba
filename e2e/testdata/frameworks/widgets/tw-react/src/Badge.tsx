export function Badge({ label }: { label: string }) {
  return <span id="tw-badge" className="badge-pill">{label}</span>;
}
