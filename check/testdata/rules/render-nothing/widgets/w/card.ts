// A component entry of no framework widgetd can tell: nothing mounts it, and
// the bundle keeps only the bridge.
import { widget } from "widgetd";

export default function Card(props: { title: string }) {
  return `<h2>${props.title}</h2>`;
}

widget.onToolResult(() => console.log("result"));
