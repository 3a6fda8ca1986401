import Link from 'next/link';
import { notFound } from 'next/navigation';
import { getRequestLocale } from '@/app/request-locale';
import { ApprovalCardPage, ApprovalSignIn } from '@/components/approval-page';
import { ChatSidebar } from '@/components/chat-sidebar';
import { Drawer } from '@/components/drawer';
import { dictionaries } from '@/components/i18n';
import { LocaleSwitch } from '@/components/locale-switch';
import { ThemeToggle } from '@/components/theme-toggle';
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
  // The app's navigation, as on the inbox: a mail link lands here, and the way back is one click.
  const sidebarAccount = { ...account, isApprover: user.roles.length > 0 };
  return (
    <div className="grid h-dvh grid-cols-1 md:grid-cols-[15rem_minmax(0,1fr)]">
      <div className="hidden min-h-0 md:flex md:flex-col">
        <ChatSidebar account={sidebarAccount} />
      </div>
      <div className="flex min-h-0 min-w-0 flex-col">
        <header className="flex items-center gap-2 border-b border-border px-4 py-2">
          <Drawer side="left" label="chats" className="md:hidden">
            <ChatSidebar account={sidebarAccount} />
          </Drawer>
          <Link href="/approvals" className="text-sm underline" data-testid="back-to-inbox">
            ← {dictionaries[locale].inbox}
          </Link>
          <div className="ml-auto flex items-center gap-2">
            <LocaleSwitch />
            <ThemeToggle />
          </div>
        </header>
        <main className="mx-auto flex w-full max-w-xl flex-1 flex-col gap-4 overflow-y-auto px-4 py-8">
          <h1 className="text-lg font-semibold">{title}</h1>
          <ApprovalCardPage view={view} />
        </main>
      </div>
    </div>
  );
}
