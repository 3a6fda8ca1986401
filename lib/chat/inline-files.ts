import { DownloadError, type Experimental_DownloadFunction, type UIMessage } from 'ai';

/** Whether a file part's `url` holds its content inline (`data:`), so nothing is fetched for it. */
export function isDataUrl(url: unknown): boolean {
  return typeof url === 'string' && url.slice(0, 5).toLowerCase() === 'data:';
}

/**
 * What a file part that names a remote address becomes before the model sees it: a note,
 * not the file. The server fetches no URL a message names (it would scan and call any
 * address for whoever wrote it), and a part stored before that rule is no exception.
 */
export function inlineFilePart(part: UIMessage['parts'][number]): UIMessage['parts'][number] {
  if (part.type !== 'file' || isDataUrl(part.url)) return part;
  return { type: 'text', text: '[A file given by URL was left out: the server does not fetch URLs.]' };
}

/**
 * The AI SDK's download hook for `streamText` / `generateText`: it never fetches. A URL the
 * model's provider takes itself is passed on as is; any other is refused with a
 * `DownloadError` (by default the SDK would fetch it from this server).
 */
export const refuseDownloads: Experimental_DownloadFunction = async (requests) =>
  requests.map(({ url, isUrlSupportedByModel }) => {
    if (isUrlSupportedByModel) return null;
    throw new DownloadError({ url: url.toString(), message: 'The server does not fetch URLs' });
  });
