/**
 * Case names and which need the production build, without importing the cases
 * (they import server modules, which only the child processes can load).
 */
const needsBuildByCase: Record<string, boolean> = {
  'key-derivation': false,
  nlu: false,
  'single-flight': false,
  memory: false,
  redis: false,
  'chat-throughput': true,
  'approval-resume': true,
  'parked-approvals': true,
  'approval-decisions': true,
  'database-engines': true,
  'effect-records': false,
  tracing: true,
  provenance: false,
  'inbox-volume': false,
};

/** Every case, in run order; must match `bench/cases/index.ts`. */
export const benchCaseNames: readonly string[] = Object.keys(needsBuildByCase);

/** Whether `name` serves HTTP from `.next-bench`. */
export function caseNeedsBuild(name: string): boolean {
  return needsBuildByCase[name] === true;
}
