const el = document.getElementById("pizza-list-root");
if (!el) throw new Error("Missing pizza-list-root element");
el.textContent = "Pizza";
