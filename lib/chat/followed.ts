/**
 * `stream`, counting as one reader of a turn while it is read: released when it
 * ends, errors or the reader cancels it (the client went away).
 */
export function followed<T>(stream: ReadableStream<T>, follow: () => () => void): ReadableStream<T> {
  const leave = follow();
  const reader = stream.getReader();
  return new ReadableStream<T>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          leave();
          controller.close();
        } else controller.enqueue(value);
      } catch (error) {
        leave();
        controller.error(error);
      }
    },
    cancel(reason) {
      leave();
      return reader.cancel(reason);
    },
  });
}
