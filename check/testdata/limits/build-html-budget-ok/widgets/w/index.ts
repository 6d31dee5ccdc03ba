document.body.textContent = "w";
