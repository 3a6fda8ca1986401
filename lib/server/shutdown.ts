/**
 * The process is asked to stop (SIGTERM from an orchestrator, SIGINT from a terminal). Next.js
 * then stops taking connections and exits once the open ones end; a browser following an
 * event stream or a turn would hold it for as long as the stream lives (minutes). Streams
 * made with {@link endsAtShutdown} end at once instead: the browser reconnects to whichever
 * instance serves next and reads the saved state again, and a turn whose reader has gone
 * parks its approval in the database, as when a tab closes.
 */

type ShutdownState = { listeners: Set<() => void>; installed: boolean; shuttingDown: boolean };

const globalForShutdown = globalThis as typeof globalThis & { __toolgateShutdown?: ShutdownState };

function state(): ShutdownState {
  globalForShutdown.__toolgateShutdown ??= { listeners: new Set(), installed: false, shuttingDown: false };
  return globalForShutdown.__toolgateShutdown;
}

/** Ends every stream made with {@link endsAtShutdown}, now and from now on. */
export function shutDownStreams(): void {
  const current = state();
  current.shuttingDown = true;
  for (const listener of [...current.listeners]) listener();
  current.listeners.clear();
}

/**
 * How long a stopping process lets requests in flight finish. Next.js would wait for every
 * open connection, and a browser reconnects its event streams over a kept-alive one, so
 * without a bound a page left open could hold the process for good.
 */
export const shutdownGraceMs = 10_000;

/**
 * Listens for SIGTERM and SIGINT once per process: the streams end at once, and the process
 * exits after {@link shutdownGraceMs} if it has not by then. Were nobody else listening
 * (Next.js is), the signal is raised again after the streams are told, so this never keeps
 * a process alive.
 */
export function endStreamsOnSignals(): void {
  const current = state();
  if (current.installed) return;
  current.installed = true;
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      shutDownStreams();
      setTimeout(() => process.exit(0), shutdownGraceMs).unref();
      if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
    });
  }
}

/**
 * `body`, ending (closed for the reader, cancelled at its source) when the process is asked
 * to stop. Costs one set entry per open stream, removed when the stream ends either way.
 */
export function endsAtShutdown<CHUNK>(body: ReadableStream<CHUNK>): ReadableStream<CHUNK> {
  const current = state();
  const reader = body.getReader();
  let closed = false;
  let end: () => void = () => undefined;
  const finish = () => {
    closed = true;
    current.listeners.delete(end);
  };
  return new ReadableStream<CHUNK>({
    start(controller) {
      end = () => {
        if (closed) return;
        finish();
        controller.close();
        reader.cancel().catch(() => undefined);
      };
      if (current.shuttingDown) end();
      else current.listeners.add(end);
    },
    async pull(controller) {
      let next: ReadableStreamReadResult<CHUNK>;
      try {
        next = await reader.read();
      } catch (error) {
        if (!closed) {
          finish();
          controller.error(error);
        }
        return;
      }
      if (closed) return;
      if (next.done) {
        finish();
        controller.close();
      } else controller.enqueue(next.value);
    },
    cancel(reason) {
      finish();
      return reader.cancel(reason);
    },
  });
}
