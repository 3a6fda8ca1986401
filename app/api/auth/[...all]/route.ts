import { getAuth } from '@/lib/auth/get-auth';
import { withUnavailableAs503 } from '@/lib/http/with-unavailable-as-503';

/** better-auth's endpoints: sign-up, sign-in (email, anonymous), sign-out, session. */
const handle = withUnavailableAs503(async (request: Request) => (await getAuth()).handler(request));

export const GET = handle;
export const POST = handle;
