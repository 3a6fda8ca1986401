'use client';

import { type LucideIcon, X } from 'lucide-react';
import type { ReactNode } from 'react';
import { Badge } from './ui/badge';
import { Button } from './ui/button';
import { useWorkspace } from './workspace-provider';

/** A chat header's row of things the caller may revoke: an icon, the row's name, then one `RevocableItem` each. */
export function RevocableBar({
  label,
  icon: Icon,
  testId,
  children,
}: {
  /** The row's accessible name, also shown before its items. */
  label: string;
  icon: LucideIcon;
  testId: string;
  children: ReactNode;
}) {
  return (
    <section
      aria-label={label}
      className="flex flex-wrap items-center gap-2 border-b border-border px-4 py-2 text-xs"
      data-testid={testId}
    >
      <Icon className="size-4 text-muted-foreground" aria-hidden="true" />
      <span className="text-muted-foreground">{label}:</span>
      {children}
    </section>
  );
}

/** One item of a `RevocableBar`: what it is, then a revoke button named `revokeLabel`. */
export function RevocableItem({
  revokeLabel,
  onRevoke,
  children,
}: {
  revokeLabel: string;
  onRevoke: () => void;
  children: ReactNode;
}) {
  const { t } = useWorkspace();
  return (
    <Badge variant="outline" className="gap-1">
      {children}
      <Button variant="ghost" size="sm" className="h-5 px-1" aria-label={revokeLabel} onClick={onRevoke}>
        <X aria-hidden="true" />
        {t.revoke}
      </Button>
    </Badge>
  );
}
