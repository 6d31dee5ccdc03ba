document.body.textContent = "declared";
