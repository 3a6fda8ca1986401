/**
 * The domain database. `getDb` (the server's shared connection) is deliberately not
 * re-exported: it imports `server-only`, and scripts such as `examples/` must be able to use
 * `openDatabase` and the repositories without it. Import it from `@/lib/db/get-db`.
 */
export * from './chats';
export * from './knowledge';
export { type Migration, migrate, migrations } from './migrations';
export * from './open-database';
export * from './orders';
export * from './tickets';
export * from './todos';
