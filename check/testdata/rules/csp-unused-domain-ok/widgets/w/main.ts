const base = ["https:", "", "used.example.com"].join("/");
fetch(base + "/x");
document.body.append("ready");
