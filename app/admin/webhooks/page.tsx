import Link from 'next/link';
import { notFound } from 'next/navigation';
import { parseWebhookDeliveriesQuery } from '@/app/api/admin/webhooks/schema';
import { getRequestLocale } from '@/app/request-locale';
import { dictionaries } from '@/components/i18n';
import { Badge } from '@/components/ui/badge';
import { Button, buttonVariants } from '@/components/ui/button';
import { NativeSelect, NativeSelectOption } from '@/components/ui/native-select';
import { RecordTable } from '@/components/ui/record-table';
import { requirePageUser } from '@/lib/auth/require-page-user';
import type { WebhookDeliveryStatus } from '@/lib/webhooks';
import { readWebhookDeliveries } from '@/lib/webhooks/read-webhook-deliveries';

export const dynamic = 'force-dynamic';

// Exhaustive: a new status is a type error here until it has a colour.
const variantByStatus: Record<WebhookDeliveryStatus, 'secondary' | 'success' | 'destructive'> = {
  pending: 'secondary',
  delivered: 'success',
  failed: 'destructive',
};

const statuses = Object.keys(variantByStatus) as WebhookDeliveryStatus[];

const shortTime = (iso: string) => iso.replace('T', ' ').slice(0, 19);

/** The approval webhook's deliveries, for admins (anyone else: not found, as the API answers). */
export default async function WebhookDeliveriesPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const locale = await getRequestLocale();
  const text = dictionaries[locale].webhooks;
  const user = await requirePageUser('/admin/webhooks');
  if (!user.isAdmin) notFound();
  const parsed = parseWebhookDeliveriesQuery(await searchParams);
  const query = parsed.success ? parsed.data : { limit: 100 };
  const { configured, receiver, deliveries } = await readWebhookDeliveries(query);

  return (
    <main className="mx-auto flex max-w-6xl flex-col gap-4 p-4 sm:p-6">
      <header className="flex flex-wrap items-center justify-between gap-2">
        <div>
          <h1 className="text-lg font-semibold">{text.title}</h1>
          <p className="text-sm text-muted-foreground">{text.intro}</p>
        </div>
        <Link href="/audit" className={buttonVariants({ variant: 'outline', size: 'sm' })}>
          {text.back}
        </Link>
      </header>

      {configured ? (
        <p className="text-sm">
          {text.receiver}: <span className="font-mono text-xs">{receiver}</span>
        </p>
      ) : (
        <p role="status" className="text-sm text-muted-foreground">
          {text.notConfigured}
        </p>
      )}

      <form method="get" action="/admin/webhooks" className="flex flex-wrap items-end gap-3">
        <label htmlFor="webhook-status" className="flex flex-col gap-1 text-xs font-medium">
          {text.status}
          <NativeSelect id="webhook-status" name="status" defaultValue={query.status ?? ''}>
            <NativeSelectOption value="">{text.all}</NativeSelectOption>
            {statuses.map((status) => (
              <NativeSelectOption key={status} value={status}>
                {text.statuses[status]}
              </NativeSelectOption>
            ))}
          </NativeSelect>
        </label>
        <Button type="submit" size="sm" className="h-9">
          {text.filter}
        </Button>
      </form>

      {parsed.success ? null : (
        <p role="alert" className="text-sm text-destructive">
          {text.invalid}: {parsed.error}
        </p>
      )}

      <RecordTable
        columns={[
          { label: text.time },
          { label: text.event },
          { label: text.approval },
          { label: text.status },
          { label: text.tries, align: 'right' },
          { label: text.lastAnswer },
          { label: text.nextTry },
        ]}
        isEmpty={deliveries.length === 0}
        emptyText={text.empty}
      >
        {deliveries.map((delivery) => (
          <tr key={delivery.id} className="border-t border-border">
            <td className="px-3 py-2 whitespace-nowrap tabular-nums">
              <time dateTime={delivery.createdAt}>{shortTime(delivery.createdAt)}</time>
            </td>
            <td className="px-3 py-2 font-mono text-xs" title={delivery.id}>
              {delivery.type}
            </td>
            <td className="max-w-48 truncate px-3 py-2 font-mono text-xs" title={delivery.approvalId}>
              {delivery.approvalId}
            </td>
            <td className="px-3 py-2">
              <Badge variant={variantByStatus[delivery.status]}>{text.statuses[delivery.status]}</Badge>
            </td>
            <td className="px-3 py-2 text-right tabular-nums">{delivery.attempts}</td>
            <td className="max-w-80 truncate px-3 py-2 text-xs" title={delivery.lastError ?? ''}>
              {delivery.lastError ?? (delivery.lastStatus === null ? '—' : `HTTP ${delivery.lastStatus}`)}
            </td>
            <td className="px-3 py-2 whitespace-nowrap tabular-nums">
              {delivery.nextAttemptAt === null ? (
                '—'
              ) : (
                <time dateTime={delivery.nextAttemptAt}>{shortTime(delivery.nextAttemptAt)}</time>
              )}
            </td>
          </tr>
        ))}
      </RecordTable>
    </main>
  );
}
