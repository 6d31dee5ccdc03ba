document.body.innerHTML = "</script><b>x</b>";
