import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { stableStringify } from '@toolgate/engine';
import { type Policy, type PolicyNames, parsePolicyText } from '@toolgate/engine/policy';

/** The policy in force in this process: the file's validated content, its version, when it was read. */
export type LoadedPolicy = {
  policy: Policy;
  /** Hex SHA-256 of the policy's canonical JSON (keys sorted): equal rules, equal version. */
  version: string;
  /** When this process started to use an edit of the file (ISO 8601); undefined for the file as read at start-up. */
  loadedAt?: string;
};

type Store = {
  /** The `TOOLGATE_POLICY` path the policy was read from. */
  path?: string;
  /** What its rules may name, as the start-up check gave: an edit is checked against the same. */
  names?: PolicyNames;
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
function policyVersionOf(policy: Policy): string {
  return createHash('sha256').update(stableStringify(policy)).digest('hex');
}

/** The policy this process holds for the file at `path`; undefined when it loaded none from there. */
export function loadedPolicy(path: string): LoadedPolicy | undefined {
  const state = store();
  return state.path === path ? state.loaded : undefined;
}

/** Reads the file at `path` and validates it against `names`: its text, and the policy or every problem. */
function readPolicy(
  path: string,
  names: PolicyNames,
): { text?: string } & ({ policy: Policy } | { problems: string[] }) {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    return { problems: [`TOOLGATE_POLICY: cannot read "${path}": ${(error as Error).message}`] };
  }
  return { text, ...parsePolicyText(path, text, names) };
}

/**
 * Reads and validates the `TOOLGATE_POLICY` file (a path relative to the app folder, or
 * absolute): a rule may name only what `names` knows. A valid file becomes the policy in
 * force; otherwise every problem is returned, each a sentence naming the field, for the
 * start-up error to list with the rest.
 */
export function loadPolicyFile(
  path: string,
  names: PolicyNames,
): { policy: Policy } | { problems: string[] } {
  const read = readPolicy(path, names);
  if ('problems' in read) return { problems: read.problems };
  const state = store();
  if (state.path !== path) clearInterval(state.timer);
  state.path = path;
  state.names = names;
  state.text = read.text;
  state.loaded = { policy: read.policy, version: policyVersionOf(read.policy) };
  return { policy: read.policy };
}

/** Options of {@link watchPolicyFile}. */
export type WatchPolicyFileOptions = {
  /** How often the file is read. Default 5000 ms. */
  intervalMs?: number;
  /** Called with each new valid policy (roles that follow the file, for one). */
  onChange?: (loaded: LoadedPolicy) => void | Promise<void>;
};

/**
 * Picks up an edited policy file without a restart: ONE timer per process reads the file
 * `loadPolicyFile` loaded every `intervalMs`; a changed text is validated against the same
 * names as at start-up, and a valid one replaces the policy in force (each instance reads
 * the same file, so all converge within the interval). A bad edit is logged with its
 * problems and the last good policy stays. Without a loaded policy there is nothing to watch.
 */
export function watchPolicyFile({ intervalMs = 5000, onChange }: WatchPolicyFileOptions = {}): () => void {
  const state = store();
  const { path, names } = state;
  if (path === undefined || names === undefined) return () => undefined;
  clearInterval(state.timer);
  const look = () => {
    const read = readPolicy(path, names);
    if (read.text === undefined && 'problems' in read) {
      console.error(`[toolgate] policy: ${read.problems.join('; ')}; keeping the policy in force`);
      return;
    }
    if (read.text === state.text) return;
    state.text = read.text;
    if ('problems' in read) {
      console.error(
        `[toolgate] policy: the edit of "${path}" is refused; keeping version ${state.loaded?.version.slice(0, 12)}:\n  ${read.problems.join('\n  ')}`,
      );
      return;
    }
    const version = policyVersionOf(read.policy);
    if (version === state.loaded?.version) return;
    state.loaded = { policy: read.policy, version, loadedAt: new Date().toISOString() };
    console.info(`[toolgate] policy: version ${version.slice(0, 12)} of "${path}" is in force`);
    void Promise.resolve(onChange?.(state.loaded)).catch((error: unknown) =>
      console.error('[toolgate] policy: could not apply the new version:', error),
    );
  };
  state.timer = setInterval(look, intervalMs);
  state.timer.unref?.();
  return () => clearInterval(state.timer);
}
