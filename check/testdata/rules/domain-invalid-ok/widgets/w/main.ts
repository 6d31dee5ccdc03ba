document.body.dataset.ready = "1";
document.body.append("ready");
