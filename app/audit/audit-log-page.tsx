import Link from 'next/link';
import { parseAuditQuery } from '@/app/api/audit/schema';
import { getRequestLocale } from '@/app/request-locale';
import { dictionaries } from '@/components/i18n';
import { Badge } from '@/components/ui/badge';
import { Button, buttonVariants } from '@/components/ui/button';
import { NativeSelect, NativeSelectOption } from '@/components/ui/native-select';
import { RecordTable } from '@/components/ui/record-table';
import { userNamesById } from '@/lib/approvals';
import { readAuditLog } from '@/lib/audit/read-audit-log';
import { requirePageUser } from '@/lib/auth/require-page-user';
import { getDb } from '@/lib/db';
import { type AuditOutcome, type AuditRow, auditOutcomes } from '@/lib/db/audit';
import { listWorkers } from '@/lib/mcp/list-workers';
import { parseMcpToolName } from '@/lib/mcp/mcp-tool-name';
import { toolNames as builtInToolNames } from '@/lib/tools/tool-catalog';
import { auditDecisionLines } from './audit-decision-lines';

type BadgeVariant = 'secondary' | 'outline' | 'success' | 'warning' | 'destructive';

// Exhaustive: a new outcome is a type error here until it has a colour.
const variantByOutcome: Record<AuditOutcome, BadgeVariant> = {
  executed: 'success',
  replayed: 'secondary',
  denied: 'warning',
  timeout: 'warning',
  aborted: 'outline',
  closed: 'outline',
  superseded: 'outline',
  error: 'destructive',
  rate_limited: 'warning',
  approved_by_rule: 'success',
  undone: 'outline',
  escalated: 'secondary',
  grant_created: 'secondary',
  grant_revoked: 'outline',
  taint_cleared: 'outline',
  withdrawn: 'outline',
  asked: 'secondary',
  answered: 'secondary',
};

/** The text filters' look (user id, chat id). */
const filterInputClass =
  'h-9 w-64 rounded-md border border-border bg-background px-3 text-sm shadow-xs outline-none focus-visible:ring-2 focus-visible:ring-ring';

/**
 * The audit log: who called which tool, with what outcome, filterable by chat, tool and
 * outcome. `all` is every user's log, for admins (by user too); `mine` is the caller's own.
 */
export async function AuditLogPage({
  searchParams,
  scope,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
  scope: 'all' | 'mine';
}) {
  const locale = await getRequestLocale();
  const { audit: text, auditOutcomes: outcomeText, workerNames } = dictionaries[locale];
  const path = scope === 'all' ? '/audit' : '/activity';
  const user = await requirePageUser(path);
  if (scope === 'all' && !user.isAdmin) {
    return (
      <main className="mx-auto flex max-w-6xl flex-col gap-4 p-4 sm:p-6">
        <h1 className="text-lg font-semibold">{text.title}</h1>
        <p role="alert" className="text-sm">
          {text.adminsOnly}
        </p>
        <Link
          href="/activity"
          className={buttonVariants({ variant: 'outline', size: 'sm', className: 'w-fit' })}
        >
          {text.activityLink}
        </Link>
      </main>
    );
  }
  const parsed = parseAuditQuery(await searchParams);
  const query = parsed.success ? parsed.data : { limit: 100 };
  const rows = await readAuditLog(scope === 'mine' ? { ...query, userId: user.id } : query);
  // Who decided each call, by name (the row keeps their user ids).
  const names = await userNamesById(
    await getDb(),
    rows.flatMap((row) => row.detail?.deciders ?? []),
  );
  const decisionLines = (row: AuditRow): string[] =>
    auditDecisionLines(row, text, dictionaries[locale].denials, names);
  const toolNames = [
    ...builtInToolNames,
    ...(await listWorkers()).flatMap((worker) => worker.mcpTools.map((tool) => tool.name)),
  ];

  return (
    <main className="mx-auto flex max-w-6xl flex-col gap-4 p-4 sm:p-6">
      <header className="flex flex-wrap items-center justify-between gap-2">
        <div>
          <h1 className="text-lg font-semibold">{scope === 'all' ? text.title : text.activityTitle}</h1>
          <p className="text-sm text-muted-foreground">{scope === 'all' ? text.intro : text.activityIntro}</p>
        </div>
        <div className="flex gap-2">
          {scope === 'all' && (
            <Link href="/admin/webhooks" className={buttonVariants({ variant: 'ghost', size: 'sm' })}>
              {dictionaries[locale].webhooks.link}
            </Link>
          )}
          <Link href="/" className={buttonVariants({ variant: 'outline', size: 'sm' })}>
            {text.back}
          </Link>
        </div>
      </header>

      <form method="get" action={path} className="flex flex-wrap items-end gap-3">
        {scope === 'all' && (
          <label htmlFor="audit-user-id" className="flex flex-col gap-1 text-xs font-medium">
            {text.userId}
            <input
              id="audit-user-id"
              name="userId"
              defaultValue={query.userId ?? ''}
              className={filterInputClass}
            />
          </label>
        )}
        <label htmlFor="audit-chat-id" className="flex flex-col gap-1 text-xs font-medium">
          {text.chatId}
          <input
            id="audit-chat-id"
            name="chatId"
            defaultValue={query.chatId ?? ''}
            className={filterInputClass}
          />
        </label>
        <label htmlFor="audit-tool" className="flex flex-col gap-1 text-xs font-medium">
          {text.tool}
          <NativeSelect id="audit-tool" name="tool" defaultValue={query.tool ?? ''}>
            <NativeSelectOption value="">{text.all}</NativeSelectOption>
            {toolNames.map((tool) => (
              <NativeSelectOption key={tool} value={tool}>
                {tool}
              </NativeSelectOption>
            ))}
          </NativeSelect>
        </label>
        <label htmlFor="audit-outcome" className="flex flex-col gap-1 text-xs font-medium">
          {text.outcome}
          <NativeSelect id="audit-outcome" name="outcome" defaultValue={query.outcome ?? ''}>
            <NativeSelectOption value="">{text.all}</NativeSelectOption>
            {auditOutcomes.map((outcome) => (
              <NativeSelectOption key={outcome} value={outcome}>
                {outcomeText[outcome]}
              </NativeSelectOption>
            ))}
          </NativeSelect>
        </label>
        <Button type="submit" size="sm" className="h-9">
          {text.filter}
        </Button>
        <Link href={path} className={buttonVariants({ variant: 'ghost', size: 'sm', className: 'h-9' })}>
          {text.clear}
        </Link>
      </form>

      {parsed.success ? null : (
        <p role="alert" className="text-sm text-destructive">
          {text.invalid}: {parsed.error}
        </p>
      )}

      <RecordTable
        columns={[
          { label: text.time },
          ...(scope === 'all' ? [{ label: text.user }] : []),
          { label: text.chat },
          { label: text.worker },
          { label: text.summary },
          { label: text.tool },
          { label: text.outcome },
          { label: text.decision },
          { label: text.duration, align: 'right' as const },
          { label: text.argsHash },
        ]}
        isEmpty={rows.length === 0}
        emptyText={text.empty}
      >
        {rows.map((row) => (
          <tr key={row.id} className="border-t border-border">
            <td className="px-3 py-2 whitespace-nowrap tabular-nums">
              <time dateTime={row.createdAt}>{row.createdAt.replace('T', ' ').slice(0, 19)}</time>
            </td>
            {scope === 'all' && (
              <td className="max-w-32 truncate px-3 py-2 font-mono text-xs" title={row.userId ?? ''}>
                {row.userId ?? '—'}
              </td>
            )}
            <td className="max-w-48 truncate px-3 py-2 font-mono text-xs">
              <Link
                href={`/chat/${encodeURIComponent(row.chatId)}`}
                className="underline-offset-2 hover:underline"
              >
                {row.chatId}
              </Link>
            </td>
            <td className="px-3 py-2">
              {Object.hasOwn(workerNames, row.worker) ? workerNames[row.worker] : row.worker}
            </td>
            {/* Null for tools without a summary (MCP) and rows written before summaries were kept. */}
            <td className="max-w-72 px-3 py-2" data-testid="audit-summary">
              {row.summary?.[locale] ?? '—'}
            </td>
            <td className="px-3 py-2 font-mono text-xs">
              {row.toolName}
              {/* The server is part of an MCP tool's name: `<server>__<tool>`. */}
              {parseMcpToolName(row.toolName) && (
                <Badge variant="outline" className="ml-2 font-sans">
                  {text.mcpServer} {parseMcpToolName(row.toolName)?.server}
                </Badge>
              )}
            </td>
            <td className="px-3 py-2">
              <Badge variant={variantByOutcome[row.outcome]}>{outcomeText[row.outcome]}</Badge>
            </td>
            <td className="max-w-72 px-3 py-2 text-xs" data-testid="audit-decision">
              {decisionLines(row).map((line) => (
                <div key={line}>{line}</div>
              ))}
            </td>
            <td className="px-3 py-2 text-right tabular-nums">{row.durationMs} ms</td>
            <td className="px-3 py-2 font-mono text-xs" title={row.argsHash}>
              {row.argsHash.slice(0, 12)}…
            </td>
          </tr>
        ))}
      </RecordTable>
    </main>
  );
}
