import { createApp } from "vue";
import App from "./App.vue";

createApp(App, { greeting: "Hello from Vue" }).mount("#root");
