import { AuditLogPage } from '../audit/audit-log-page';

export const dynamic = 'force-dynamic';

/** The caller's own tool calls. */
export default function ActivityPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  return <AuditLogPage searchParams={searchParams} scope="mine" />;
}
