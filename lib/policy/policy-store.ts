import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { stableStringify } from '@/lib/shared/stable-stringify';
import { type Policy, type PolicyNames, parsePolicy } from './policy-file';

/** The policy in force in this process: the file's validated content, its version, when it was read. */
export type LoadedPolicy = {
  policy: Policy;
  /** Hex SHA-256 of the policy's canonical JSON (keys sorted): equal rules, equal version. */
  version: string;
  /** When this process started to use it (ISO 8601). */
  loadedAt: string;
};

type Store = {
  loaded?: LoadedPolicy;
  /** The text last read, so an unchanged file costs one read and no parse. */
  text?: string;
  timer?: ReturnType<typeof setInterval>;
};

const globalForStore = globalThis as typeof globalThis & { __toolgatePolicyStore?: Store };
const store = (): Store => {
  globalForStore.__toolgatePolicyStore ??= {};
  return globalForStore.__toolgatePolicyStore;
};

/** The version of a policy: hex SHA-256 of its canonical JSON. */
export function policyVersionOf(policy: Policy): string {
  return createHash('sha256').update(stableStringify(policy)).digest('hex');
}

/** The policy this process reloaded from the file, when it did; undefined before the first change. */
export function reloadedPolicy(): LoadedPolicy | undefined {
  return store().loaded;
}

/** Options of {@link watchPolicyFile}. */
export type WatchPolicyFileOptions = {
  /** The `TOOLGATE_POLICY` path. */
  path: string;
  /** What rules may name: the built-in tools and those of the configured MCP servers, as at start-up. */
  names: PolicyNames;
  /** The policy the process started with. */
  initial: Policy;
  /** How often the file is read. Default 5000 ms. */
  intervalMs?: number;
  /** Called with each new valid policy (roles that follow the file, for one). */
  onChange?: (loaded: LoadedPolicy) => void | Promise<void>;
};

/**
 * Picks up an edited policy file without a restart: ONE timer per process reads the file
 * every `intervalMs`; a changed text is validated as at start-up, and a valid one replaces
 * the policy in force (each instance reads the same file, so all converge within the
 * interval). A bad edit is logged with its problems and the last good policy stays.
 */
export function watchPolicyFile({
  path,
  names,
  initial,
  intervalMs = 5000,
  onChange,
}: WatchPolicyFileOptions): () => void {
  const state = store();
  state.loaded ??= { policy: initial, version: policyVersionOf(initial), loadedAt: new Date().toISOString() };
  clearInterval(state.timer);
  const look = () => {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      console.error(`[toolgate] policy: cannot read "${path}"; keeping the policy in force:`, error);
      return;
    }
    if (text === state.text) return;
    const first = state.text === undefined;
    state.text = text;
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      console.error(
        `[toolgate] policy: "${path}" is not valid JSON (${(error as Error).message}); keeping version ${state.loaded?.version.slice(0, 12)}`,
      );
      return;
    }
    const result = parsePolicy(json, names);
    if ('problems' in result) {
      console.error(
        `[toolgate] policy: the edit of "${path}" is refused; keeping version ${state.loaded?.version.slice(0, 12)}:\n  ${result.problems.join('\n  ')}`,
      );
      return;
    }
    const version = policyVersionOf(result.policy);
    if (version === state.loaded?.version) return;
    state.loaded = { policy: result.policy, version, loadedAt: new Date().toISOString() };
    if (!first) console.info(`[toolgate] policy: version ${version.slice(0, 12)} of "${path}" is in force`);
    void Promise.resolve(onChange?.(state.loaded)).catch((error: unknown) =>
      console.error('[toolgate] policy: could not apply the new version:', error),
    );
  };
  look();
  state.timer = setInterval(look, intervalMs);
  state.timer.unref?.();
  return () => clearInterval(state.timer);
}
