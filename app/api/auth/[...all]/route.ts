import { handleAuthRequest } from '@/lib/auth/handle-auth-request';
import { withUnavailableAs503 } from '@/lib/http/with-unavailable-as-503';

/** better-auth's endpoints (sign-up, sign-in, verification, sign-out, session) behind Toolgate's rules. */
const handle = withUnavailableAs503(handleAuthRequest);

export const GET = handle;
export const POST = handle;
