// The App adapter (adapter.ts) over window.openai alone: what a widget gets
// whose code posts its own ui/initialize (an ext-apps App, a vendored copy)
// and uses neither the widgetd API nor window.openai (bridge level "app",
// bundler/bridgelevel.go). The bundler puts an import of it ahead of that
// code, in place of appadapter.ts. On a host with ui/* it does nothing; on a
// window.openai-only host it answers the App in the host's place.
import { adaptApp } from "./adapter";
import { openaiHost } from "./openaihost";

adaptApp(openaiHost);
