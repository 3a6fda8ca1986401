/**
 * The domain database, for server code. This barrel includes `getDb`, which imports
 * `server-only`; scripts that run outside Next.js (`examples/`, benchmarks) import
 * `./open-database` and the repository modules directly instead.
 */
export * from './approval-rules';
export * from './audit';
export * from './audit-chain';
export * from './chat-streams';
export * from './chat-untrusted-reads';
export * from './chats';
export * from './database-unavailable';
export * from './engine';
export { getDb } from './get-db';
export * from './guest-links';
export * from './knowledge';
export { type Migration, migrate, migrations } from './migrations';
export * from './money';
export * from './open-database';
export * from './orders';
export * from './refunds';
export * from './role-bootstrap';
export type { DatabaseSchema } from './schema';
export * from './standing-grants';
export * from './tickets';
export * from './todos';
export * from './user-roles';
export { writeTransaction } from './write-transaction';
