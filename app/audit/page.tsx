import { AuditLogPage } from './audit-log-page';

export const dynamic = 'force-dynamic';

/** Every user's tool calls, for admins. */
export default function AuditPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  return <AuditLogPage searchParams={searchParams} scope="all" />;
}
