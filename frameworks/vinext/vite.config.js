// Vite configuration of the vinext adapter: the vinext plugin alone, as
// vinext's README documents it. It finds app/ (App Router), reads
// next.config.mjs and builds the RSC, SSR and client environments with
// @vitejs/plugin-rsc and @vitejs/plugin-react, which it loads itself.

import { defineConfig } from 'vite';
import vinext from 'vinext';

export default defineConfig({
  plugins: [vinext()],
});
