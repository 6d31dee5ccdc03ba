import { useKitAppName, useKitProps, useKitTheme } from "widget-kit";

export const widgetMetadata = { description: "Shows an order" };

type Order = { id: string; lines: { name: string; qty: number }[] };

export default function OrderView() {
  const order = useKitProps<Order>();
  const theme = useKitTheme();
  const app = useKitAppName();
  if (!order) return <p>Loading the order…</p>;
  return (
    <div className="order" data-theme={theme}>
      <small id="kit-view-app">{app}</small>
      <h2 id="kit-view-title">Order {order.id}</h2>
      {order.lines.map((l) => (
        <p key={l.name} className="kit-view-line">
          {l.qty} × {l.name}
        </p>
      ))}
    </div>
  );
}
