/**
 * Runs once when a server instance starts. The Node.js-only part lives in its
 * own module so the Edge bundle of this hook never sees `process.exit`.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME === 'nodejs') await (await import('./instrumentation-node')).startServer();
}
