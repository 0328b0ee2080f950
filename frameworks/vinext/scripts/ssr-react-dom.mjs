// Build check: which react-dom server build the production server renders
// HTML with. Reads the SSR environment's bundle of the standalone output
// (dist/standalone/dist/server/ssr/**.js), finds the react-dom/server*
// specifiers it imports (vinext leaves react-dom external, so Node resolves
// them when the server starts), resolves each from that folder as Node will
// and prints "specifier -> file". With an argument (server.node.js or
// server.edge.js) it exits 1 unless every one resolves to that file of
// react-dom, so a build that renders with the other one fails loudly.

import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, join } from 'node:path';

const ssrDir = 'dist/standalone/dist/server/ssr';
const want = process.argv[2];

/** Every .js file under dir, recursively. */
function jsFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return jsFiles(p);
    return e.name.endsWith('.js') ? [p] : [];
  });
}

const specifiers = new Set();
for (const file of jsFiles(ssrDir)) {
  for (const m of readFileSync(file, 'utf8').matchAll(/["'](react-dom\/server(?:\.[a-z]+)?)["']/g)) {
    specifiers.add(m[1]);
  }
}
if (specifiers.size === 0) {
  console.error(`ssr-react-dom: no react-dom/server import in ${ssrDir}`);
  process.exit(1);
}
// Node's resolution of a bare specifier from the SSR bundle: the "node"
// export condition (require's conditions; import's pick the same file).
const require = createRequire(join(process.cwd(), ssrDir, 'index.js'));
let ok = true;
for (const s of [...specifiers].sort()) {
  const file = require.resolve(s);
  console.log(`ssr-react-dom: ${ssrDir} imports ${s} -> ${file} (node ${process.version})`);
  if (want && basename(file) !== want) {
    console.error(`ssr-react-dom: ${s} resolves to ${basename(file)}, want react-dom/${want}`);
    ok = false;
  }
}
process.exit(ok ? 0 : 1);
