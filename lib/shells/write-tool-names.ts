/**
 * The tools that change data (declared on each tool: `kind: 'write'`). The idempotency
 * shell guards these by default; reads are left out on purpose, because a read must
 * always show the current state.
 */
export { writeToolNames } from '@/lib/tools/tool-catalog';
