import { checkStartupConfiguration } from '@/lib/startup/check-startup-configuration';

/** What the process read from the environment and the files it names, kept on globalThis. */
const configurationKeys = ['__toolgateConfig', '__toolgateMcpConfig', '__toolgatePolicyStore'];

/** Forgets the configuration read from `process.env` and the files it names (tests that change them). */
export function forgetConfiguration(): void {
  const globals = globalThis as Record<string, unknown>;
  for (const key of configurationKeys) delete globals[key];
}

/**
 * Forgets the configuration and checks it again as a server does at start-up (which also
 * reads the `MCP_CONFIG` and `TOOLGATE_POLICY` files anew): what a restart would see.
 */
export function startUpAgain(): void {
  forgetConfiguration();
  checkStartupConfiguration();
}
