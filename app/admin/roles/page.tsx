import Link from 'next/link';
import { notFound } from 'next/navigation';
import { parseRoleListQuery } from '@/app/api/admin/roles/schema';
import { getRequestLocale } from '@/app/request-locale';
import { dictionaries } from '@/components/i18n';
import { RoleControls } from '@/components/role-controls';
import { Badge } from '@/components/ui/badge';
import { Button, buttonVariants } from '@/components/ui/button';
import { RecordTable } from '@/components/ui/record-table';
import { requirePageUser } from '@/lib/auth/require-page-user';
import { listRoleHolders } from '@/lib/auth/role-admin';
import { policyInForce } from '@/lib/policy';

export const dynamic = 'force-dynamic';

const searchInputClass =
  'h-9 w-64 rounded-md border border-border bg-background px-3 text-sm shadow-xs outline-none focus-visible:ring-2 focus-visible:ring-ring';

/** Accounts and their roles, for verified admins: search by email, grant, revoke. Anyone else: 404. */
export default async function RoleAdminPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const user = await requirePageUser('/admin/roles');
  if (!user.isAdmin) notFound();
  const locale = await getRequestLocale();
  const text = dictionaries[locale].roleAdmin;
  const parsed = parseRoleListQuery(await searchParams);
  const query = parsed.success ? parsed.data : { q: undefined, offset: 0, limit: 50 };
  const { users, nextOffset } = await listRoleHolders({
    emailContains: query.q,
    offset: query.offset,
    limit: query.limit,
  });
  const policy = policyInForce();
  const pageLink = (offset: number) => {
    const params = new URLSearchParams({ offset: String(offset) });
    if (query.q !== undefined) params.set('q', query.q);
    return `/admin/roles?${params}`;
  };

  return (
    <main className="mx-auto flex max-w-6xl flex-col gap-4 p-4 sm:p-6">
      <header className="flex flex-wrap items-center justify-between gap-2">
        <div>
          <h1 className="text-lg font-semibold">{text.title}</h1>
          <p className="max-w-3xl text-sm text-muted-foreground">{text.intro}</p>
          {policy !== undefined && (
            <p className="text-xs text-muted-foreground" data-testid="policy-version">
              {text.policyVersion(policy.version.slice(0, 12), policy.loadedAt)}
            </p>
          )}
        </div>
        <Link href="/" className={buttonVariants({ variant: 'outline', size: 'sm' })}>
          {text.back}
        </Link>
      </header>

      <form method="get" action="/admin/roles" className="flex flex-wrap items-end gap-3">
        <label htmlFor="role-search" className="flex flex-col gap-1 text-xs font-medium">
          {text.search}
          <input
            id="role-search"
            name="q"
            type="search"
            maxLength={254}
            defaultValue={query.q ?? ''}
            className={searchInputClass}
          />
        </label>
        <Button type="submit" size="sm" className="h-9">
          {text.searchButton}
        </Button>
        <Link
          href="/admin/roles"
          className={buttonVariants({ variant: 'ghost', size: 'sm', className: 'h-9' })}
        >
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
          { label: text.email },
          { label: text.name },
          { label: text.verified },
          { label: text.roles },
        ]}
        isEmpty={users.length === 0}
        emptyText={text.empty}
      >
        {users.map((holder) => (
          <tr key={holder.id} className="border-t border-border align-top">
            <td className="px-3 py-2 font-mono text-xs">{holder.email}</td>
            <td className="max-w-48 truncate px-3 py-2">{holder.name}</td>
            <td className="px-3 py-2">
              <Badge variant={holder.emailVerified ? 'success' : 'outline'}>
                {holder.emailVerified ? text.verified : text.unverified}
              </Badge>
            </td>
            <td className="px-3 py-2">
              <RoleControls
                userId={holder.id}
                email={holder.email}
                roles={holder.roles}
                fileRoles={holder.fileRoles}
                adminByConfig={holder.adminByConfig}
              />
            </td>
          </tr>
        ))}
      </RecordTable>

      <nav aria-label={text.title} className="flex gap-2">
        {query.offset > 0 && (
          <Link
            href={pageLink(Math.max(0, query.offset - query.limit))}
            className={buttonVariants({ variant: 'outline', size: 'sm' })}
          >
            {text.previous}
          </Link>
        )}
        {nextOffset !== null && (
          <Link href={pageLink(nextOffset)} className={buttonVariants({ variant: 'outline', size: 'sm' })}>
            {text.next}
          </Link>
        )}
      </nav>
    </main>
  );
}
