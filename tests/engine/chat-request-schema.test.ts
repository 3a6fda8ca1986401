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

describe('parseChatRequest, on what else a new message may carry', () => {
  const long = 'x'.repeat(400_000);
  const dataUrl = 'data:text/plain;base64,aGk=';

  it.each([
    ['a data part', { type: 'data-note', data: long }],
    ['a reasoning part', { type: 'reasoning', text: 'thinking' }],
    ['a tool part', { type: 'tool-createTicket', toolCallId: 'c1', state: 'output-available', output: long }],
    ['a source part', { type: 'source-url', sourceId: 's1', url: 'https://example.com' }],
  ])('refuses %s: a new message holds text and files only', (_name, part) => {
    const parsed = parseChatRequest(body([{ type: 'text', text: 'hi' }, part]));
    expect(parsed).toEqual({ success: false, error: expect.stringContaining('only text and file parts') });
  });

  it.each([
    ['mediaType', { type: 'file', mediaType: long, url: dataUrl }],
    ['filename', { type: 'file', mediaType: 'text/plain', filename: long, url: dataUrl }],
  ])('refuses a file part whose %s is longer than 255 characters', (field, part) => {
    const parsed = parseChatRequest(body([{ type: 'text', text: 'hi' }, part]));
    expect(parsed).toEqual({ success: false, error: expect.stringContaining(field) });
  });

  it('keeps a file part’s name and type within the limits', () => {
    const part = { type: 'file', mediaType: 'text/plain', filename: 'notes.txt', url: dataUrl };
    const parsed = parseChatRequest(body([{ type: 'text', text: 'hi' }, part]));
    expect(parsed.success && parsed.data.message.parts[1]).toEqual(part);
  });

  it('drops provider metadata and message metadata, which nothing reads and nothing counts', () => {
    const parsed = parseChatRequest({
      id: 'chat-1',
      message: {
        id: 'm1',
        role: 'user',
        metadata: { note: long },
        parts: [
          { type: 'text', text: 'hi', providerMetadata: { x: { y: long } } },
          { type: 'file', mediaType: 'text/plain', url: dataUrl, providerMetadata: { x: { y: long } } },
        ],
      },
    });
    expect(parsed.success && parsed.data.message).toEqual({
      id: 'm1',
      role: 'user',
      parts: [
        { type: 'text', text: 'hi' },
        { type: 'file', mediaType: 'text/plain', url: dataUrl },
      ],
    });
  });

  it('refuses a message whose JSON is longer than 64 KiB, however its characters are counted', () => {
    // 24,000 control characters are 24,000 characters of text, and six times as many in JSON.
    const parts = Array.from({ length: 3 }, () => ({ type: 'text', text: '\u0001'.repeat(8_000) }));
    const parsed = parseChatRequest(body(parts));
    expect(parsed).toEqual({ success: false, error: expect.stringContaining('65,536 characters as JSON') });
  });

  it.each([
    ['Han characters', '工'],
    ['line feeds and quotes', '\n"'],
  ])('accepts 24,000 characters of %s within that size', (_name, unit) => {
    const parts = Array.from({ length: 3 }, () => ({ type: 'text', text: unit.repeat(8_000 / unit.length) }));
    expect(parseChatRequest(body(parts)).success).toBe(true);
  });
});
