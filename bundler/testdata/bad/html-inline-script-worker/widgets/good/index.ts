document.body.textContent = "ok";
