import type { NextConfig } from 'next';

const nextConfig: NextConfig = {
  // Without this, `next dev` blocks its dev resources for 127.0.0.1 and the page never hydrates.
  allowedDevOrigins: ['127.0.0.1'],
  // Native and Node-only modules stay out of the server bundle.
  serverExternalPackages: ['better-sqlite3', 'redis'],
  // Builds for tests and benchmarks go to their own folders so they never fight `next dev`.
  distDir: process.env.NEXT_DIST_DIR || '.next',
};

export default nextConfig;
