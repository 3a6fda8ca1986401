import type { Metadata } from 'next';
import type { ReactNode } from 'react';
import 'streamdown/styles.css';
import './globals.css';
import { getRequestLocale } from '@/app/request-locale';
import { MarkdownPolicyProvider } from '@/components/markdown-policy';
import { themeInitScript } from '@/components/theme-script';
import { WorkspaceProvider } from '@/components/workspace-provider';
import { getConfig } from '@/lib/config';

export const metadata: Metadata = {
  title: 'Toolgate',
  description: 'An AI agent that acts only through hardened tools.',
};

/** The document: theme applied before paint, language from the request, shared workspace state. */
export default async function RootLayout({ children }: { children: ReactNode }) {
  const locale = await getRequestLocale();
  return (
    // suppressHydrationWarning: the theme script changes <html>'s class before React hydrates.
    <html lang={locale === 'zh' ? 'zh-CN' : 'en'} suppressHydrationWarning>
      <head>
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: a constant script of ours, needed before first paint. */}
        <script dangerouslySetInnerHTML={{ __html: themeInitScript }} />
      </head>
      <body className="min-h-dvh font-sans antialiased">
        <MarkdownPolicyProvider allowedImageOrigins={getConfig().TOOLGATE_ALLOWED_IMAGE_ORIGINS}>
          <WorkspaceProvider initialLocale={locale}>{children}</WorkspaceProvider>
        </MarkdownPolicyProvider>
      </body>
    </html>
  );
}
