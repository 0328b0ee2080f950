// Answers every request with the version of the Node.js running it.
require("node:http")
  .createServer((req, res) => res.end(process.version))
  .listen(Number(process.env.PORT), "127.0.0.1");
