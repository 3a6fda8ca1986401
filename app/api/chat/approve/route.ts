import type { NextRequest } from 'next/server';
import { decideApproval } from '@/lib/chat/resolve-approval';
import { readJsonBody } from '@/lib/http/json';
import { ownerIdFromRequest } from '@/lib/server/owner';

/** A person's decision on a pending approval, for HTTP clients. */
export async function POST(request: NextRequest) {
  const body = await readJsonBody(request, { maxBytes: 4096 });
  if (!body.ok) return body.response;
  const result = await decideApproval(body.value, ownerIdFromRequest(request));
  return Response.json(result.body, { status: result.status });
}
