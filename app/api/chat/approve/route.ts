import type { NextRequest } from 'next/server';
import { resolveApproval } from '@/lib/chat/resolve-approval';
import { describeZodError, jsonError, readJsonBody } from '@/lib/http/json';
import { ownerIdFromRequest } from '@/lib/server/owner';
import { approveRequestSchema } from './schema';

/** A person's decision on a pending approval, for HTTP clients. */
export async function POST(request: NextRequest) {
  const body = await readJsonBody(request, { maxBytes: 4096 });
  if (!body.ok) return body.response;
  const parsed = approveRequestSchema.safeParse(body.value);
  if (!parsed.success) return jsonError(400, describeZodError(parsed.error));

  const result = await resolveApproval({ ...parsed.data, ownerId: ownerIdFromRequest(request) });
  if (result === null) return jsonError(404, 'No pending approval with that id in this session');
  return Response.json(result);
}
