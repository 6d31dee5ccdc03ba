document.body.innerHTML = "<b>bold</b>";
