document.getElementById("app").textContent = "icswire";
