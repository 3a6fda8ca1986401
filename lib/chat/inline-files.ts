import { fileText } from '@toolgate/engine/provenance';
import { DownloadError, type Experimental_DownloadFunction, type UIMessage } from 'ai';
import { attachedFileText } from '@/lib/shared/attached-file-text';

/** Whether a file part's `url` holds its content inline (`data:`), so nothing is fetched for it. */
export function isDataUrl(url: unknown): boolean {
  return typeof url === 'string' && url.slice(0, 5).toLowerCase() === 'data:';
}

/**
 * A `data:` URL whose content is base64 (`data:<type>[;param=value…];base64,<base64>`, padded),
 * the only inline form the model call reads: any other (`data:text/plain,hello`, bad base64)
 * makes the AI SDK throw while it builds the prompt, on that turn and every later one.
 */
const base64DataUrl =
  /^data:[^,;]*(?:;[^,;]+)*;base64,(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/i;

/** Whether a file part's `url` holds its content inline as base64, the form the model call can read. */
export function isBase64DataUrl(url: unknown): boolean {
  return typeof url === 'string' && isDataUrl(url) && base64DataUrl.test(url);
}

/** The media types every model provider here takes as a file part (images, PDF, the audio OpenAI reads). */
const filePartTypes = /^(image\/|application\/pdf$|audio\/(wav|mpeg|mp3)$)/i;

/** The most characters of an attached file's text the model is given. */
const maxFileTextChars = 24_000;

/**
 * What a file part becomes when it is not inline base64: a note, not the file. The server
 * fetches no URL a message names (it would scan and call any address for whoever wrote it),
 * and a `data:` URL that is not base64 would break the chat's every later turn; a part stored
 * before these rules is no exception.
 */
export function inlineFilePart(part: UIMessage['parts'][number]): UIMessage['parts'][number] {
  if (part.type !== 'file' || isBase64DataUrl(part.url)) return part;
  if (isDataUrl(part.url)) return { type: 'text', text: '[A file that was not valid base64 was left out.]' };
  return { type: 'text', text: '[A file given by URL was left out: the server does not fetch URLs.]' };
}

/**
 * What an inline file becomes in the model's prompt (only there: the chat keeps the file, and
 * its text never counts as text the person typed). An image, a PDF or audio stays a file. Any
 * other type (text, CSV, JSON…), which a provider would refuse on that turn and every later
 * one, becomes a text part holding the file's text, or a note when it holds none.
 */
export function filePartForModel(part: UIMessage['parts'][number]): UIMessage['parts'][number] {
  if (part.type !== 'file' || !isBase64DataUrl(part.url) || filePartTypes.test(part.mediaType)) return part;
  const name = part.filename ?? 'attachment';
  const text = fileText(part)?.slice(0, maxFileTextChars);
  return { type: 'text', text: attachedFileText(name, text, part.mediaType) };
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
