import type Database from 'better-sqlite3';
import { seedKnowledgeArticles, seedOrders } from './seed-data';

/** One schema step. Its position in `migrations` is its version: never reorder or edit a shipped one. */
export type Migration = {
  /** Shown in errors so a failing step is easy to find. */
  name: string;
  up: (db: Database.Database) => void;
};

/**
 * The ordered schema history. `PRAGMA user_version` records how many have run,
 * so a new table (an audit log, say) is one entry appended at the end.
 */
export const migrations: readonly Migration[] = [
  {
    name: 'domain tables',
    up: (db) => {
      db.exec(`
        -- AUTOINCREMENT (not a bare rowid) so a deleted ticket's number is never handed out again.
        CREATE TABLE tickets (
          id INTEGER PRIMARY KEY AUTOINCREMENT,
          title TEXT NOT NULL,
          detail TEXT,
          order_id TEXT,
          status TEXT NOT NULL DEFAULT 'open',
          chat_id TEXT,
          created_at TEXT NOT NULL
        );
        CREATE INDEX tickets_chat_id ON tickets (chat_id);

        CREATE TABLE todos (
          id INTEGER PRIMARY KEY AUTOINCREMENT,
          title TEXT NOT NULL,
          status TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'done')),
          created_at TEXT NOT NULL
        );

        CREATE TABLE orders (
          id TEXT PRIMARY KEY,
          status TEXT NOT NULL,
          carrier TEXT,
          eta TEXT,
          items TEXT NOT NULL,
          placed_at TEXT NOT NULL
        );

        CREATE TABLE knowledge_articles (
          id TEXT PRIMARY KEY,
          topic TEXT NOT NULL,
          lang TEXT NOT NULL CHECK (lang IN ('zh', 'en')),
          title TEXT NOT NULL,
          body TEXT NOT NULL,
          keywords TEXT NOT NULL DEFAULT ''
        );

        -- trigram, not unicode61: unicode61 keeps a run of Chinese characters as one token,
        -- so a search for part of a Chinese sentence would never match.
        CREATE VIRTUAL TABLE knowledge_fts USING fts5(
          article_id UNINDEXED, title, body, keywords, tokenize = 'trigram'
        );
        CREATE TRIGGER knowledge_articles_ai AFTER INSERT ON knowledge_articles BEGIN
          INSERT INTO knowledge_fts (article_id, title, body, keywords)
          VALUES (new.id, new.title, new.body, new.keywords);
        END;
        CREATE TRIGGER knowledge_articles_ad AFTER DELETE ON knowledge_articles BEGIN
          DELETE FROM knowledge_fts WHERE article_id = old.id;
        END;
        CREATE TRIGGER knowledge_articles_au AFTER UPDATE ON knowledge_articles BEGIN
          DELETE FROM knowledge_fts WHERE article_id = old.id;
          INSERT INTO knowledge_fts (article_id, title, body, keywords)
          VALUES (new.id, new.title, new.body, new.keywords);
        END;

        CREATE TABLE chats (
          id TEXT PRIMARY KEY,
          owner_id TEXT,
          title TEXT NOT NULL,
          worker TEXT NOT NULL,
          created_at TEXT NOT NULL,
          updated_at TEXT NOT NULL
        );
        CREATE INDEX chats_owner_updated ON chats (owner_id, updated_at);

        CREATE TABLE chat_messages (
          chat_id TEXT NOT NULL REFERENCES chats (id) ON DELETE CASCADE,
          id TEXT NOT NULL,
          position INTEGER NOT NULL,
          role TEXT NOT NULL,
          message TEXT NOT NULL,
          created_at TEXT NOT NULL,
          PRIMARY KEY (chat_id, id)
        );
        CREATE INDEX chat_messages_position ON chat_messages (chat_id, position);
      `);
    },
  },
  {
    // Seeding is a migration so it runs exactly once per file: reopening never duplicates
    // rows, and sample rows a user deleted do not come back.
    name: 'seed sample orders and knowledge articles',
    up: (db) => {
      seedOrders(db);
      seedKnowledgeArticles(db);
    },
  },
  {
    // One row per tool call, written by the audit shell. No foreign key to chats on
    // purpose: deleting a chat must not erase the record of what its tools did.
    name: 'tool call audit log',
    up: (db) => {
      db.exec(`
        CREATE TABLE tool_audit (
          id INTEGER PRIMARY KEY AUTOINCREMENT,
          chat_id TEXT NOT NULL,
          worker TEXT NOT NULL,
          tool_name TEXT NOT NULL,
          tool_call_id TEXT NOT NULL,
          args_hash TEXT NOT NULL,
          outcome TEXT NOT NULL CHECK (outcome IN
            ('executed', 'replayed', 'denied', 'timeout', 'aborted', 'closed', 'error', 'rate_limited')),
          duration_ms INTEGER NOT NULL,
          created_at TEXT NOT NULL
        );
        CREATE INDEX tool_audit_chat_id ON tool_audit (chat_id, id);
      `);
    },
  },
];

/**
 * Brings the schema up to date. Runs inside one IMMEDIATE transaction and re-reads
 * `user_version` there, so two processes opening a fresh file at once migrate it once.
 */
export function migrate(db: Database.Database, steps: readonly Migration[] = migrations): number {
  const run = db.transaction(() => {
    const current = db.pragma('user_version', { simple: true }) as number;
    if (current > steps.length) {
      throw new Error(
        `Database schema version ${current} is newer than this code knows (${steps.length}); refusing to run an older build against it`,
      );
    }
    for (let version = current; version < steps.length; version++) {
      const step = steps[version];
      try {
        step.up(db);
      } catch (error) {
        throw new Error(`Migration ${version + 1} (${step.name}) failed: ${(error as Error).message}`, {
          cause: error,
        });
      }
    }
    // PRAGMA takes no bound parameters; the value is an integer we computed.
    db.pragma(`user_version = ${steps.length}`);
    return steps.length;
  });
  return run.immediate();
}
