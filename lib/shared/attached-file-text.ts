/**
 * The text part an attached file becomes for a model that cannot take the file itself. Its
 * first line names the file, so a reader of the prompt (the offline model) can tell what the
 * person typed from what a file they attached says: a file is someone else's words.
 */
const attachedFilePrefix = '[Attached file ';

/** The text part that stands for file `name`: its text, or a note that it has none the model can read. */
export function attachedFileText(name: string, text: string | undefined, mediaType: string): string {
  return text === undefined
    ? `${attachedFilePrefix}${name} (${mediaType}) holds no text the model can read.]`
    : `${attachedFilePrefix}${name}]\n${text}`;
}

/** Whether a text part of a user message stands for an attached file rather than typed text. */
export function isAttachedFileText(text: string): boolean {
  return text.startsWith(attachedFilePrefix);
}
