document.body.textContent = String(21 * 2);
