import { widget } from "widgetd";
const hazards = ["</script>", "<!-- x -->", "</SCRIPT >"];
document.getElementById("app")!.dataset.hazards = hazards.join("|");
widget.onToolResult((r) => {
  document.getElementById("app")!.textContent = JSON.stringify(r.structuredContent);
});
