// widgetd/app-adapter: the App adapter (adapter.ts) over the full bridge.
// The bundler puts an import of it ahead of every module that posts its own
// ui/initialize in a widget that gets the full bridge (bundler/appadapter.go,
// bundler/bridgelevel.go); a widget whose code uses neither the widgetd API
// nor window.openai gets appadapterlite.ts in its place.
import { adaptApp } from "./adapter";
import { expectAppHandshake, sessionUp, settleWithoutSession, widget } from "./index";

adaptApp({ expectAppHandshake, sessionUp, settleWithoutSession, widget });
