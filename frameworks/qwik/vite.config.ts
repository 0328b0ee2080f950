/**
 * Base Vite config (the Qwik starter's, trimmed): the Qwik optimizer and Qwik
 * City's file-based router. `vite build` uses it for the client build;
 * adapters/node-server/vite.config.ts extends it for the server build.
 *
 * trailingSlash: false makes /fortunes answer itself; with Qwik City's default
 * (true) a page path without the slash answers 301 to /fortunes/.
 */
import { defineConfig, type UserConfig } from 'vite';
import { qwikVite } from '@builder.io/qwik/optimizer';
import { qwikCity } from '@builder.io/qwik-city/vite';

export default defineConfig((): UserConfig => {
  return {
    plugins: [qwikCity({ trailingSlash: false }), qwikVite()],
  };
});
