// Next.js configuration, read by vinext's Vite plugin (vinext loads
// next.config.* itself; the next package is not installed): standalone
// output (vite build also writes dist/standalone/, a self-hosting server
// with the runtime node_modules it needs, started with node
// dist/standalone/server.js) and the Server header every tfbench response
// needs (no framework sends one by default). poweredByHeader is kept from
// the nextjs adapter's config; vinext never sends X-Powered-By anyway.

/** @type {import('next').NextConfig} */
const nextConfig = {
  output: 'standalone',
  poweredByHeader: false,
  async headers() {
    return [{ source: '/:path*', headers: [{ key: 'Server', value: 'vinext' }] }];
  },
};

export default nextConfig;
