/**
 * What a tool knows about the turn that calls it, from the server, never from model input:
 * whose data it reads and writes, and which chat asked.
 */
export type ToolContext = {
  /** The signed-in (or guest) user; tools read and write only this user's rows. */
  userId: string;
  /** The chat the call comes from, stored with what it creates for follow-up. */
  chatId?: string;
};
