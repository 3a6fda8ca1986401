/** Reads a server-sent event stream (an `/api/approvals/events` response) a chunk at a time. */
export function eventStreamReader(response: Response) {
  const reader = response.body?.pipeThrough(new TextDecoderStream()).getReader();
  if (reader === undefined) throw new Error(`no body to read (status ${response.status})`);
  let buffer = '';
  let done = false;
  const more = async () => {
    const next = await reader.read();
    if (next.done) done = true;
    else buffer += next.value;
  };
  const count = (needle: string) => buffer.split(needle).length - 1;
  return {
    /** Everything the stream carried so far. */
    text: () => buffer,
    /** Resolves once `needle` has arrived `times` times in all; rejects if the stream ends first. */
    async until(needle: string, times = 1) {
      while (count(needle) < times) {
        if (done) throw new Error(`the stream ended before ${needle} (${times}×): ${buffer}`);
        await more();
      }
    },
    /** Resolves with all the stream carried once the server ends it. */
    async end(): Promise<string> {
      while (!done) await more();
      return buffer;
    },
    cancel: () => reader.cancel().catch(() => undefined),
  };
}
