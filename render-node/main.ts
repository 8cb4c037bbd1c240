// Placeholder until the render node lands: keeps the process contract (STUDIO_URL, NODE_KEY) of `npm start`.
console.log(`render node: would serve ${process.env.STUDIO_URL}`);
setInterval(() => undefined, 1 << 30);
