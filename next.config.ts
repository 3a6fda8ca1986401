import type { NextConfig } from 'next';

const nextConfig: NextConfig = {
  // Without this, `next dev` blocks its dev resources for 127.0.0.1 and the page never hydrates.
  allowedDevOrigins: ['127.0.0.1'],
  // The engine is a workspace package published as TypeScript source: Next.js compiles it with the app.
  transpilePackages: ['@toolgate/engine'],
  // Native and Node-only modules stay out of the server bundle.
  serverExternalPackages: [
    'better-sqlite3',
    'redis',
    '@node-rs/jieba',
    'wink-nlp',
    'wink-eng-lite-web-model',
  ],
  // Builds for tests and benchmarks go to their own folders so they never fight `next dev`.
  distDir: process.env.NEXT_DIST_DIR || '.next',
  // The bench's comparison routes (`app/api/bench/*/route.bench.ts`) exist only in builds made
  // with TOOLGATE_BENCH_BUILD=1 (the bench's and the tests'); `next build` leaves them out.
  pageExtensions: process.env.TOOLGATE_BENCH_BUILD === '1' ? ['tsx', 'ts', 'bench.ts'] : ['tsx', 'ts'],
  // No `X-Powered-By: Next.js`: it tells a scanner what to try.
  poweredByHeader: false,
  // `npm test` type-checks every file (`npm run typecheck`) before it builds, and builds with
  // TOOLGATE_BUILD_TYPECHECK=0 so the build does not check the same files a second time.
  typescript: { ignoreBuildErrors: process.env.TOOLGATE_BUILD_TYPECHECK === '0' },
  experimental: {
    // Turbopack keeps a cache of the build's work for the next build; a clean CI clone has no
    // next build and skips writing it (TOOLGATE_BUILD_CACHE=0, set by `.ci/run`).
    turbopackFileSystemCacheForBuild: process.env.TOOLGATE_BUILD_CACHE !== '0',
  },
  async headers() {
    return [
      {
        source: '/:path*',
        headers: [
          { key: 'X-Content-Type-Options', value: 'nosniff' },
          { key: 'Referrer-Policy', value: 'strict-origin-when-cross-origin' },
        ],
      },
      // API answers are one user's data: no browser or proxy may keep a copy.
      { source: '/api/:path*', headers: [{ key: 'Cache-Control', value: 'no-store' }] },
      // A chat turn's stream (a new turn, a resume) is not re-encoded either: with `no-transform`
      // neither a proxy nor Next.js's response compression gzips it. Compressed, each chunk
      // waits for the compressor's round trip through the thread pool, behind whatever the
      // server does next, before it reaches the socket; every chunk is flushed on its own, so
      // little is gained. (A later rule wins for the same header.)
      ...['/api/chat', '/api/chat/:id/stream'].map((source) => ({
        source,
        headers: [{ key: 'Cache-Control', value: 'no-store, no-transform' }],
      })),
    ];
  },
};

export default nextConfig;
