import { notFound } from 'next/navigation';
import { getRequestLocale } from '@/app/request-locale';
import { ApprovalCardPage, ApprovalSignIn } from '@/components/approval-page';
import { dictionaries } from '@/components/i18n';
import { readApproval } from '@/lib/approvals';
import { requirePageUser } from '@/lib/auth/require-page-user';

export const dynamic = 'force-dynamic';

/**
 * One approval for whoever may decide or see it (its requester, a holder of a role one of
 * its steps asks for). A guest or an unverified account is asked to sign in first and
 * comes back here; anyone else gets the 404 page, as for an unknown id.
 */
export default async function ApprovalPage({ params }: { params: Promise<{ approvalId: string }> }) {
  const { approvalId } = await params;
  const user = await requirePageUser(`/approvals/${encodeURIComponent(approvalId)}`);
  const locale = await getRequestLocale();
  const title = dictionaries[locale].approvalPageTitle;
  const account = { email: user.email, isAnonymous: user.isAnonymous, isAdmin: user.isAdmin };
  const view =
    approvalId.length <= 128 ? await readApproval(approvalId, { ...user, language: locale }) : undefined;
  if (view === undefined && (user.isAnonymous || !user.emailVerified)) {
    return (
      <main className="mx-auto flex max-w-xl flex-col gap-4 px-4 py-8">
        <h1 className="text-lg font-semibold">{title}</h1>
        <ApprovalSignIn account={account} />
      </main>
    );
  }
  if (view === undefined) notFound();
  return (
    <main className="mx-auto flex max-w-xl flex-col gap-4 px-4 py-8">
      <h1 className="text-lg font-semibold">{title}</h1>
      <ApprovalCardPage view={view} />
    </main>
  );
}
