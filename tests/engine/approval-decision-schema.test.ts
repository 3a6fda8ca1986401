import { describe, expect, it } from 'vitest';
import { approvalDecisionSchema, approvalExtensionSchema } from '@/app/api/chat/approve/schema';

describe('approvalDecisionSchema', () => {
  it('takes the chat as chatId', () => {
    const parsed = approvalDecisionSchema.parse({ approvalId: 'a1', chatId: 'chat-1', approved: true });
    expect(parsed).toEqual({ approvalId: 'a1', chatId: 'chat-1', approved: true });
  });

  it('still takes sessionId as another name for chatId', () => {
    const parsed = approvalDecisionSchema.parse({ approvalId: 'a1', sessionId: 'chat-1', approved: false });
    expect(parsed).toEqual({ approvalId: 'a1', chatId: 'chat-1', approved: false });
  });

  it('takes a body without the chat (an approver deciding from the approval page)', () => {
    expect(approvalDecisionSchema.parse({ approvalId: 'a1', approved: true })).toEqual({
      approvalId: 'a1',
      approved: true,
    });
  });

  it('refuses a body with two names of the chat that disagree', () => {
    const both = approvalDecisionSchema.safeParse({
      approvalId: 'a1',
      chatId: 'chat-1',
      sessionId: 'chat-2',
      approved: true,
    });
    expect(both.success).toBe(false);
    expect(
      approvalDecisionSchema.safeParse({ approvalId: 'a1', chatId: 'c', sessionId: 'c', approved: true })
        .success,
    ).toBe(true);
  });
});

describe('approvalExtensionSchema', () => {
  it('takes chatId, and sessionId as another name for it', () => {
    expect(approvalExtensionSchema.parse({ approvalId: 'a1', chatId: 'chat-1' })).toEqual({
      approvalId: 'a1',
      chatId: 'chat-1',
    });
    expect(approvalExtensionSchema.parse({ approvalId: 'a1', sessionId: 'chat-1' })).toEqual({
      approvalId: 'a1',
      chatId: 'chat-1',
    });
    expect(approvalExtensionSchema.safeParse({ approvalId: 'a1' }).success).toBe(false);
  });
});
