'use client';

import { createAuthClient } from 'better-auth/react';
import { LogOut, ShieldCheck, UserCog, UserRound } from 'lucide-react';
import Link from 'next/link';
import { type FormEvent, useState } from 'react';
import type { AccountSummary } from './api-types';
import { Badge } from './ui/badge';
import { Button } from './ui/button';
import { useWorkspace } from './workspace-provider';

// Same origin: the client talks to this app's own `/api/auth/*`.
const authClient = createAuthClient();

const inputClass =
  'h-8 w-full rounded-md border border-border bg-background px-2 text-sm outline-none focus-visible:ring-2 focus-visible:ring-ring';

/**
 * Who is chatting, at the foot of the chats list: a guest badge with Sign up / Sign in
 * (a guest keeps their chats, tickets and todos when they do), or the account with Sign
 * out. Links to the user's own activity, and to the audit log for admins.
 */
export function AccountMenu({ account }: { account: AccountSummary }) {
  const { t } = useWorkspace();
  const [mode, setMode] = useState<'closed' | 'signIn' | 'signUp'>('closed');
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const [sentTo, setSentTo] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const email = String(form.get('email') ?? '');
    const password = String(form.get('password') ?? '');
    setBusy(true);
    setProblem(undefined);
    const result =
      mode === 'signUp'
        ? await authClient.signUp.email({
            email,
            password,
            name: String(form.get('name') ?? '') || email,
            // The emailed link signs the person in and brings them back here.
            callbackURL: window.location.pathname,
          })
        : await authClient.signIn.email({ email, password });
    setBusy(false);
    if (result.error) {
      setProblem(problemOf(result.error.status, mode));
      return;
    }
    // No session yet: the account waits for its emailed link.
    if (result.data?.token === null) {
      setSentTo(email);
      setMode('closed');
      return;
    }
    // Every panel reads the new session from the server.
    window.location.reload();
  }

  function problemOf(status: number, attempted: 'signIn' | 'signUp' | 'closed'): string {
    if (status === 429) return t.tooManyAttempts;
    if (status === 400 || status === 413) return t.accountRejected;
    if (status === 403) return attempted === 'signUp' ? t.signUpClosed : t.verifyFirst;
    return t.accountFailed;
  }

  async function signOut() {
    await authClient.signOut();
    // Back to a fresh guest session.
    window.location.assign('/');
  }

  return (
    <section aria-label={t.account} className="flex flex-col gap-2 border-t border-border px-1 pt-2 text-sm">
      <div className="flex items-center gap-2">
        <UserRound className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
        {account.isAnonymous ? (
          <Badge variant="outline" data-testid="guest-badge">
            {t.guest}
          </Badge>
        ) : (
          <span className="truncate text-xs" data-testid="signed-in-as">
            {t.signedInAs(account.email)}
          </span>
        )}
      </div>
      {sentTo !== undefined && (
        <p role="status" className="text-xs" data-testid="check-email">
          {t.checkEmail(sentTo)}
        </p>
      )}
      {account.isAnonymous && mode === 'closed' && (
        <>
          <p className="text-xs text-muted-foreground">{t.guestHint}</p>
          <div className="flex gap-2">
            <Button size="sm" onClick={() => setMode('signUp')}>
              {t.signUp}
            </Button>
            <Button size="sm" variant="outline" onClick={() => setMode('signIn')}>
              {t.signIn}
            </Button>
          </div>
        </>
      )}
      {mode !== 'closed' && (
        <form onSubmit={(event) => void submit(event)} className="flex flex-col gap-2">
          {mode === 'signUp' && (
            <label className="flex flex-col gap-1 text-xs">
              {t.name}
              <input name="name" autoComplete="name" maxLength={100} className={inputClass} />
            </label>
          )}
          <label className="flex flex-col gap-1 text-xs">
            {t.email}
            <input
              name="email"
              type="email"
              required
              maxLength={254}
              autoComplete="email"
              className={inputClass}
            />
          </label>
          <label className="flex flex-col gap-1 text-xs">
            {t.password}
            <input
              name="password"
              type="password"
              required
              minLength={mode === 'signUp' ? 10 : undefined}
              maxLength={128}
              autoComplete={mode === 'signUp' ? 'new-password' : 'current-password'}
              aria-describedby="password-hint"
              className={inputClass}
            />
            <span id="password-hint" className="text-muted-foreground">
              {t.passwordHint}
            </span>
          </label>
          {problem !== undefined && (
            <p role="alert" className="text-xs text-destructive">
              {problem}
            </p>
          )}
          <div className="flex gap-2">
            <Button type="submit" size="sm" disabled={busy}>
              {mode === 'signUp' ? t.signUp : t.signIn}
            </Button>
            <Button type="button" size="sm" variant="ghost" onClick={() => setMode('closed')}>
              {t.cancel}
            </Button>
          </div>
        </form>
      )}
      <div className="flex flex-wrap gap-2 text-xs">
        <Link href="/activity" className="underline-offset-2 hover:underline">
          {t.activity}
        </Link>
        {account.isAdmin && (
          <Link href="/audit" className="inline-flex items-center gap-1 underline-offset-2 hover:underline">
            <ShieldCheck className="size-3" aria-hidden="true" />
            {t.auditLog}
          </Link>
        )}
        {account.isAdmin && (
          <Link
            href="/admin/roles"
            className="inline-flex items-center gap-1 underline-offset-2 hover:underline"
          >
            <UserCog className="size-3" aria-hidden="true" />
            {t.roleAdminLink}
          </Link>
        )}
      </div>
      {!account.isAnonymous && (
        <Button size="sm" variant="outline" className="w-fit" onClick={() => void signOut()}>
          <LogOut />
          {t.signOut}
        </Button>
      )}
    </section>
  );
}
