import { roleChangeRoute } from '../role-change-route';

export const dynamic = 'force-dynamic';

/** Stores a role for a user (admins only): see `roleChangeRoute`. */
export const POST = roleChangeRoute('grant');
