// Test widget that renders static content and never touches the bridge API
// or window.openai: the host must still learn it is ready and how tall it is.
document.getElementById("app")!.textContent = "Static content";
