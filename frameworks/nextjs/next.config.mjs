// Next.js configuration for the nextjs adapter: a standalone production
// server (node .next/standalone/server.js), no X-Powered-By, and the Server
// header every tfbench response needs (no framework sends one by default).
//
// isrFlushToDisk: false keeps the ISR page (/isr/N) cache in the server's
// memory (the LRU every hit is served from anyway, cacheMaxMemorySize 50 MB
// by default) instead of also writing it into the build directory, so no
// server start sees pages an earlier run rendered from its database copy.

/** @type {import('next').NextConfig} */
const nextConfig = {
  output: 'standalone',
  poweredByHeader: false,
  experimental: { isrFlushToDisk: false },
  async headers() {
    return [{ source: '/:path*', headers: [{ key: 'Server', value: 'nextjs' }] }];
  },
};

export default nextConfig;
