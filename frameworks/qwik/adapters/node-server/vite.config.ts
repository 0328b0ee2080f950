/**
 * Server build for the node-server adapter (the file `npx qwik add
 * node-server` writes), run as
 * `vite build --ssr -c adapters/node-server/vite.config.ts`. Output:
 * server/entry.node-server.js (imports undici and the Qwik packages from
 * node_modules at run time).
 *
 * ssg: null turns off Qwik City's static generation step (by default it runs
 * after the server build and renders 404.html); every page here is rendered
 * on each request, and the route modules must not be loaded at build time
 * (the database exists only when the harness starts the server).
 */
import { nodeServerAdapter } from '@builder.io/qwik-city/adapters/node-server/vite';
import { extendConfig } from '@builder.io/qwik-city/vite';
import baseConfig from '../../vite.config';

export default extendConfig(baseConfig, () => {
  return {
    build: {
      ssr: true,
      rollupOptions: {
        input: ['src/entry.node-server.tsx', '@qwik-city-plan'],
      },
    },
    plugins: [nodeServerAdapter({ name: 'node-server', ssg: null })],
  };
});
