import 'server-only';
import { getDb } from '@/lib/db';
import type { Language } from '@/lib/shared/language';
import type { SessionUser } from './session-user';

/**
 * Remembers the UI language a signed-in, verified user uses now, so mail to them (an
 * approval waiting for their role) is written in it. One conditional update: it writes
 * only when the language changed, and never for a guest or an unverified address (they
 * are mailed nothing). A failure is logged and changes nothing else: mail then keeps
 * the language it knew, or both.
 */
export async function rememberUserLocale(
  user: Pick<SessionUser, 'id' | 'isAnonymous' | 'emailVerified'>,
  language: Language,
): Promise<void> {
  if (user.isAnonymous || !user.emailVerified) return;
  try {
    await (await getDb())
      .updateTable('user')
      .set({ locale: language })
      .where('id', '=', user.id)
      .where((eb) => eb.or([eb('locale', 'is', null), eb('locale', '!=', language)]))
      .execute();
  } catch (error) {
    console.error('[toolgate] could not remember a user’s language:', error);
  }
}
