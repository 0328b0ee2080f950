// /json by the TFB rules; every 20th answer blocks the event loop 60 ms first.
let n = 0;
require('node:http')
  .createServer((req, res) => {
    if (++n % 20 === 0) {
      const end = Date.now() + 60;
      while (Date.now() < end) {}
    }
    res.writeHead(200, { Server: 'nodeloop', 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ message: 'Hello, World!' }));
  })
  .listen(Number(process.env.PORT), '127.0.0.1');
