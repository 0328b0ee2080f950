// /json by the TFB rules after allocating 8 arrays of 16,000 small integers
// (8 × (16,000 × 8 + 48) = 1,024,384 bytes of V8 heap); the last four
// requests' arrays stay reachable, so no optimisation removes them.
// NODEMEM_LEAK=1 keeps an array of 8,000 (64,048 bytes) per request forever.
const leak = process.env.NODEMEM_LEAK === '1';
const recent = [];
const kept = [];
let n = 0;
require('node:http')
  .createServer((req, res) => {
    const arrays = [];
    for (let i = 0; i < 8; i++) arrays.push(new Array(16000).fill(n & 0xff));
    recent[n++ % 4] = arrays;
    if (leak) kept.push(new Array(8000).fill(n & 0xff));
    res.writeHead(200, { Server: 'nodemem', 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ message: 'Hello, World!' }));
  })
  .listen(Number(process.env.PORT), '127.0.0.1');
