import { jsonError } from '@/lib/http/json';

/**
 * Any `/api/*` path no route serves: a JSON 404, as every other API answer is JSON, rather
 * than the HTML page Next would render. Routes that exist always win over this catch-all.
 */
function notFound(): Response {
  return jsonError(404, 'No such endpoint');
}

export const GET = notFound;
export const POST = notFound;
export const PUT = notFound;
export const PATCH = notFound;
export const DELETE = notFound;
