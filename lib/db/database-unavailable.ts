// Postgres SQLSTATEs of a server that is down, restarting, refusing connections or
// cancelling a statement on timeout, and the Node socket errors of a server that is gone.
const unavailableCodes = new Set([
  '08000',
  '08001',
  '08003',
  '08004',
  '08006', // connection exceptions
  '53300', // too many connections
  '57014', // statement timeout
  '57P01',
  '57P02',
  '57P03', // shutting down, crashed, starting up
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EPIPE',
  'SQLITE_BUSY',
  'SQLITE_LOCKED',
]);

// node-postgres reports a dropped or never-made connection with these messages and no code.
const unavailableMessages =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection ended unexpectedly/i;

/**
 * True when `error` means the database cannot be reached right now (rather than a bug or
 * bad input): the caller answers 503 and the next request tries again.
 */
export function isDatabaseUnavailableError(error: unknown): boolean {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && unavailableCodes.has(code)) return true;
    if (unavailableMessages.test(current.message)) return true;
    if (current instanceof AggregateError && current.errors.some(isDatabaseUnavailableError)) return true;
    current = current.cause;
  }
  return false;
}
