'use client';

import { X } from 'lucide-react';
import { useRouter } from 'next/navigation';
import { type FormEvent, useState } from 'react';
import { Badge } from './ui/badge';
import { Button } from './ui/button';
import { Input } from './ui/input';
import { useWorkspace } from './workspace-provider';

// The same rule the server checks (lib/db/user-roles.ts `roleNamePattern`), so a typo is caught before a request.
const roleNamePattern = /^[a-z][a-z0-9_-]{0,39}$/;

/** One account's roles on the admins' roles page: a revoke button on each, and a grant form. */
export function RoleControls({
  userId,
  email,
  roles,
  fileRoles = [],
  adminByConfig,
}: {
  userId: string;
  email: string;
  roles: string[];
  /** Those of `roles` the policy file gave: marked as such. */
  fileRoles?: string[];
  adminByConfig: boolean;
}) {
  const { t } = useWorkspace();
  const text = t.roleAdmin;
  const router = useRouter();
  const [role, setRole] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function send(change: 'grant' | 'revoke', name: string) {
    setBusy(true);
    setError(null);
    try {
      const response = await fetch(`/api/admin/roles/${change}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ userId, role: name }),
      });
      if (!response.ok) {
        setError(response.status === 400 ? text.badRole : text.failed);
        return;
      }
      if (change === 'grant') setRole('');
      router.refresh();
    } catch {
      setError(text.failed);
    } finally {
      setBusy(false);
    }
  }

  function grant(event: FormEvent) {
    event.preventDefault();
    const name = role.trim();
    if (!roleNamePattern.test(name)) {
      setError(text.badRole);
      return;
    }
    void send('grant', name);
  }

  const errorId = `role-error-${userId}`;
  return (
    <div className="flex flex-col gap-2">
      <ul className="flex flex-wrap gap-1" aria-label={`${text.roles}: ${email}`}>
        {adminByConfig && (
          <li>
            <Badge variant="secondary">{text.adminByConfig}</Badge>
          </li>
        )}
        {roles.map((held) => (
          <li key={held}>
            <Badge variant="outline" className="pr-0.5">
              {held}
              {fileRoles.includes(held) && (
                <span className="ml-1 text-muted-foreground" data-testid="role-from-file">
                  ({text.fromFile})
                </span>
              )}
              <Button
                type="button"
                variant="ghost"
                size="icon-sm"
                className="size-5"
                aria-label={text.revoke(held, email)}
                disabled={busy}
                onClick={() => void send('revoke', held)}
              >
                <X />
              </Button>
            </Badge>
          </li>
        ))}
        {!adminByConfig && roles.length === 0 && (
          <li className="text-xs text-muted-foreground">{text.none}</li>
        )}
      </ul>
      <form onSubmit={grant} className="flex items-center gap-1">
        <Input
          value={role}
          onChange={(event) => setRole(event.target.value)}
          placeholder={text.rolePlaceholder}
          aria-label={text.grantTo(email)}
          aria-invalid={error === text.badRole || undefined}
          aria-describedby={error === null ? undefined : errorId}
          maxLength={40}
          className="h-7 w-36"
        />
        <Button type="submit" size="sm" variant="outline" className="h-7" disabled={busy}>
          {text.grant}
        </Button>
      </form>
      {error !== null && (
        <p id={errorId} role="alert" className="text-xs text-destructive">
          {error}
        </p>
      )}
    </div>
  );
}
