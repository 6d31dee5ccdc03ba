document.body.textContent = "x";
