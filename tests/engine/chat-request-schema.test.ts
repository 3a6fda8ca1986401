import { describe, expect, it } from 'vitest';
import { chatLimits, parseChatRequest } from '@/app/api/chat/schema';

function body(parts: unknown[]) {
  return { id: 'chat-1', message: { id: 'm1', role: 'user', parts } };
}

const text = (length: number) => ({ type: 'text', text: 'a'.repeat(length) });

describe('parseChatRequest', () => {
  it('refuses a message whose parts hold more text in all than one message may (50 × 8,000 characters)', () => {
    const parsed = parseChatRequest(body(Array.from({ length: 50 }, () => text(8_000))));
    expect(parsed).toEqual({
      success: false,
      error: expect.stringContaining(`more than ${chatLimits.maxMessageLength} characters`),
    });
  });

  it('accepts a message of exactly the limit, spread over parts', () => {
    const parts = Array.from({ length: 3 }, () => text(chatLimits.maxMessageLength / 3));
    expect(parseChatRequest(body(parts)).success).toBe(true);
  });

  it('counts the legacy `{ messages }` body’s new message the same way', () => {
    const parsed = parseChatRequest({
      id: 'chat-1',
      messages: [{ id: 'm1', role: 'user', parts: Array.from({ length: 4 }, () => text(8_000)) }],
    });
    expect(parsed.success).toBe(false);
  });

  it.each([
    'http://127.0.0.1:6379/',
    'https://example.com/cat.png',
    'file:///etc/passwd',
    'ftp://example.com/x',
    '//example.com/x',
    '/api/chats',
  ])('refuses a file part at %s: the server fetches no URL a client names', (url) => {
    const parsed = parseChatRequest(
      body([
        { type: 'text', text: 'look' },
        { type: 'file', mediaType: 'image/png', url },
      ]),
    );
    expect(parsed).toEqual({ success: false, error: expect.stringContaining('data: URL') });
  });

  it('accepts a file part whose content is inline (data: URL)', () => {
    const url = `data:image/png;base64,${'A'.repeat(100)}`;
    const parsed = parseChatRequest(
      body([
        { type: 'text', text: 'look' },
        { type: 'file', mediaType: 'image/png', url },
      ]),
    );
    expect(parsed.success).toBe(true);
  });

  it('counts an inline file towards the message limit', () => {
    const url = `data:image/png;base64,${'A'.repeat(chatLimits.maxMessageLength)}`;
    const parsed = parseChatRequest(
      body([
        { type: 'text', text: 'look' },
        { type: 'file', mediaType: 'image/png', url },
      ]),
    );
    expect(parsed).toEqual({
      success: false,
      error: expect.stringContaining(`more than ${chatLimits.maxMessageLength} characters`),
    });
  });
});
