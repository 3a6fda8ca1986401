import 'server-only';
import { cookies, headers } from 'next/headers';
import { isLocale, type Locale, localeFromLanguageTag, localeStorageKey } from '@/components/i18n';

/**
 * The locale to render on the server: the user's saved choice (mirrored into a
 * cookie by the language switch), else the browser's first Accept-Language. Doing
 * this on the server means the first paint is already in the right language.
 */
export async function getRequestLocale(): Promise<Locale> {
  const saved = (await cookies()).get(localeStorageKey)?.value;
  if (isLocale(saved)) return saved;
  const acceptLanguage = (await headers()).get('accept-language');
  return localeFromLanguageTag(acceptLanguage?.split(',')[0]);
}

/** The same choice read from a request's own headers (route handlers, which have the request at hand). */
export function localeOfRequest(request: Request): Locale {
  const cookie = request.headers.get('cookie') ?? '';
  const saved = cookie
    .split(';')
    .map((pair) => pair.trim().split('='))
    .find(([name]) => name === localeStorageKey)?.[1];
  if (isLocale(saved)) return saved;
  return localeFromLanguageTag(request.headers.get('accept-language')?.split(',')[0]);
}
