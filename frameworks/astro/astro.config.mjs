// Astro configuration of the tfbench astro adapter: every route rendered on
// demand (output 'server', nothing prerendered) and served by the
// @astrojs/node standalone server (dist/server/entry.mjs), which listens on
// env HOST and PORT (framework.yaml sets HOST=127.0.0.1; the harness sets
// PORT). The app uses no sessions, so the filesystem session store the node
// adapter would otherwise configure is turned off.
import { defineConfig } from 'astro/config';
import node from '@astrojs/node';

export default defineConfig({
  output: 'server',
  adapter: node({ mode: 'standalone' }),
  server: { host: '127.0.0.1' },
  session: false,
});
