/**
 * Vitest setup file of the projects whose files share one process (`isolate: false`): runs
 * before each file, so every file starts as it would in a process of its own. The environment
 * is put back as the process started (a policy file or an MCP config one file named must not
 * reach the next), and the configuration the app read from it is forgotten.
 */
import { forgetConfiguration } from '../support/process-configuration';

type Globals = { __toolgateTestStartEnvironment?: Record<string, string | undefined> };

const globals = globalThis as Globals;
const startEnvironment = (globals.__toolgateTestStartEnvironment ??= { ...process.env });
for (const key of Object.keys(process.env)) if (!(key in startEnvironment)) delete process.env[key];
Object.assign(process.env, startEnvironment);
forgetConfiguration();
