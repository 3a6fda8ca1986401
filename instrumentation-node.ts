import { ConfigError, getConfig } from './lib/config';

// Parsing the configuration at start-up turns a bad value (say a typo in
// AGENT_CONFIRM_TOOLS, which must never silently turn approval off) into a
// failure to start. Next.js would only log the error and keep serving requests
// that can only fail, so the process exits.
try {
  getConfig();
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(error.message);
  process.exit(1);
}
