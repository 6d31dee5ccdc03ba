document.body.innerHTML = "<!-- comment -->";
