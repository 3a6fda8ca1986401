import { roleChangeRoute } from '../role-change-route';

export const dynamic = 'force-dynamic';

/** Removes a stored role from a user (admins only): see `roleChangeRoute`. */
export const POST = roleChangeRoute('revoke');
