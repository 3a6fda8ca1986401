/**
 * Runs once when a server instance starts. Parsing the configuration here turns a
 * bad value (say a typo in AGENT_CONFIRM_TOOLS, which must never silently turn
 * approval off) into a start-up failure instead of an error on every request.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { ConfigError, getConfig } = await import('./lib/config');
  try {
    getConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    // Next.js would log the error and keep serving requests that can only fail.
    console.error(error.message);
    process.exit(1);
  }
}
