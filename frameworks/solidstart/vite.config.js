// Vite configuration of the tfbench solidstart adapter: SolidStart 2's Vite
// plugin (file routes under src/routes, the middleware module that sets the
// Server header and the HTML charset) and Nitro's Vite plugin with the
// node-server preset, SolidStart 2's documented Node production server:
// `vite build` writes .output/, started with `node .output/server/index.mjs`,
// which listens on env HOST and PORT (framework.yaml sets HOST=127.0.0.1;
// the harness sets PORT).
import { defineConfig } from 'vite';
import { solidStart } from '@solidjs/start/config';
import { nitro } from 'nitro/vite';

export default defineConfig({
  plugins: [solidStart({ middleware: './src/middleware.js' }), nitro({ preset: 'node-server' })],
});
