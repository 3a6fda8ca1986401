import { checkStartupConfiguration } from '@/lib/startup/check-startup-configuration';
import { forgetConfiguration } from './process-globals';

/**
 * Forgets the configuration and checks it again as a server does at start-up (which also
 * reads the `MCP_CONFIG` and `TOOLGATE_POLICY` files anew): what a restart would see.
 */
export function startUpAgain(): void {
  forgetConfiguration();
  checkStartupConfiguration();
}
