// Next.js configuration for the nextjs adapter: a standalone production
// server (node .next/standalone/server.js), no X-Powered-By, and the Server
// header every tfbench response needs (no framework sends one by default).

/** @type {import('next').NextConfig} */
const nextConfig = {
  output: 'standalone',
  poweredByHeader: false,
  async headers() {
    return [{ source: '/:path*', headers: [{ key: 'Server', value: 'nextjs' }] }];
  },
};

export default nextConfig;
