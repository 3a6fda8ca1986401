import type { ApprovalStepView } from './api-types';
import type { Dictionary } from './i18n';

/** A role's name as the page says it: localized when known, otherwise as the policy spells it. */
export function roleLabel(t: Dictionary, role: string): string {
  return Object.hasOwn(t.roleNames, role) ? (t.roleNames[role] as string) : role;
}

/**
 * Who an approval waits for and who has decided: "Waiting for a supervisor · 1 of 2",
 * then one line per step with the decider's name once there is one. Once the call has
 * ended, nobody is waited for: approved, every step was allowed (a view read before the
 * last allow still shows it open); otherwise (denied, expired, stopped…) a step nobody
 * filled reads "not decided".
 */
export function ApprovalSteps({
  t,
  steps,
  isRequester,
  ended,
}: {
  t: Dictionary;
  steps: readonly ApprovalStepView[];
  /** The page's user asked for the call: the requester step is theirs. */
  isRequester: boolean;
  /** The call no longer waits for anyone: it was approved, or ended otherwise. */
  ended?: 'approved' | 'otherwise';
}) {
  const open = steps.filter((step) => step.decision === undefined);
  const who = [
    ...new Set(
      open.map((step) =>
        step.kind === 'role'
          ? roleLabel(t, step.role ?? '')
          : isRequester
            ? t.waitingForYou
            : t.stepRequester,
      ),
    ),
  ].join(', ');
  const allowed = steps.filter((step) => step.decision === 'allow').length;
  return (
    <div data-testid="approval-steps" className="flex flex-col gap-1 text-xs">
      {open.length > 0 && ended === undefined && (
        <p className="font-medium" data-testid="approval-waiting-for">
          {t.waitingFor(who)} · {t.stepsDone(allowed, steps.length)}
        </p>
      )}
      <ol className="flex flex-col gap-0.5 text-muted-foreground">
        {steps.map((step, index) => (
          <li
            // Steps never reorder: their position is their identity.
            // biome-ignore lint/suspicious/noArrayIndexKey: see above.
            key={index}
            data-testid="approval-step"
            data-decision={step.decision ?? 'open'}
          >
            {step.kind === 'role' ? roleLabel(t, step.role ?? '') : t.stepRequester}
            {step.escalatedTo !== undefined && (
              <span data-testid="approval-step-escalated">
                {' ('}
                {t.stepEscalatedTo(roleLabel(t, step.escalatedTo))}
                {')'}
              </span>
            )}
            {' — '}
            {step.decision === 'allow'
              ? t.stepAllowedBy(step.decidedBy?.name ?? '')
              : step.decision === 'deny'
                ? t.stepDeniedBy(step.decidedBy?.name ?? '')
                : ended === 'approved'
                  ? t.stepAllowed
                  : ended === 'otherwise'
                    ? t.stepUndecided
                    : t.stepOpen}
          </li>
        ))}
      </ol>
    </div>
  );
}
