/**
 * What a test process keeps on `globalThis` and has to let go of to start as a new process
 * would, with no imports of the app: the integration project's setup file runs this before every
 * file, and importing the app there would cost each file seconds it may not need.
 */

/** What the process read from the environment and the files it names, kept on globalThis. */
const configurationKeys = ['__toolgateConfig', '__toolgateMcpConfig', '__toolgatePolicyStore'];

/** Forgets the configuration read from `process.env` and the files it names (tests that change them). */
export function forgetConfiguration(): void {
  const globals = globalThis as Record<string, unknown>;
  for (const key of configurationKeys) delete globals[key];
}

/**
 * Retires this process's approval deadline keeper as if its process had ended: once a pass in
 * progress has ended, its one timer is cleared and it is marked busy for good, so nothing arms
 * it again (its pass would otherwise read whichever database the next test opens). The next
 * keeper starts afresh, as in a new process.
 */
export async function retireDeadlineKeeper(): Promise<void> {
  type Keeper = { timer?: ReturnType<typeof setTimeout>; running: boolean };
  const globals = globalThis as { __toolgateApprovalDeadlines?: Keeper };
  const keeper = globals.__toolgateApprovalDeadlines;
  delete globals.__toolgateApprovalDeadlines;
  if (keeper === undefined) return;
  for (let waited = 0; keeper.running && waited < 5000; waited += 10)
    await new Promise((resolve) => setTimeout(resolve, 10));
  clearTimeout(keeper.timer);
  keeper.running = true;
}
