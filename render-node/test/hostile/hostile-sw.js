// Registered by service-worker.html: a service worker runs outside the page and would fetch on install.
self.addEventListener("install", () => fetch("http://__CANARY__/service-worker"));
