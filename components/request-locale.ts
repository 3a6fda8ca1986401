import 'server-only';
import { cookies, headers } from 'next/headers';
import { isLocale, type Locale, localeFromLanguageTag, localeStorageKey } from './i18n';

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
