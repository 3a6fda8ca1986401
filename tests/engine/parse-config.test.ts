import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '@/lib/config';
import { checkStartupConfiguration } from '@/lib/startup/check-startup-configuration';
import { confirmToolNamesOf } from '@/lib/tools/tool-catalog';

describe('parseConfig', () => {
  it('asks for approval of createTicket and issueRefund, waits 60 s and keeps writes 10 min by default', () => {
    const config = parseConfig({});
    expect([...confirmToolNamesOf(config.AGENT_CONFIRM_TOOLS)]).toEqual(['createTicket', 'issueRefund']);
    expect(config.AGENT_CONFIRM_TIMEOUT_MS).toBe(60_000);
    expect(config.IDEMPOTENCY_TTL_MS).toBe(600_000);
    expect(config.IDEMPOTENCY_MAX_ENTRIES).toBe(500);
    expect(config.AGENT_TOOL_RATE_LIMIT).toBeUndefined();
  });

  it('turns approvals off with the empty string', () => {
    expect(confirmToolNamesOf(parseConfig({ AGENT_CONFIRM_TOOLS: '' }).AGENT_CONFIRM_TOOLS).size).toBe(0);
  });

  it('accepts a list with spaces', () => {
    expect([
      ...checkStartupConfiguration({ AGENT_CONFIRM_TOOLS: ' createTicket , addTodo ' }).confirmTools,
    ]).toEqual(['createTicket', 'addTodo']);
  });

  it('rejects an unknown tool name and lists the known tools, so a typo cannot turn approval off', () => {
    expect(() => checkStartupConfiguration({ AGENT_CONFIRM_TOOLS: 'createTikcet' })).toThrow(ConfigError);
    expect(() => checkStartupConfiguration({ AGENT_CONFIRM_TOOLS: 'createTikcet' })).toThrow(
      /"createTikcet".*known tools: getOrderStatus, createTicket, issueRefund, searchKnowledgeBase, addTodo, listTodos/,
    );
  });

  it('rejects a timeout that is not a positive integer, saying what came', () => {
    expect(() => parseConfig({ AGENT_CONFIRM_TIMEOUT_MS: '-5' })).toThrow(/AGENT_CONFIRM_TIMEOUT_MS.*"-5"/);
    expect(() => parseConfig({ IDEMPOTENCY_TTL_MS: 'soon' })).toThrow(/IDEMPOTENCY_TTL_MS/);
  });

  it('reads a rate limit as calls per window', () => {
    expect(parseConfig({ AGENT_TOOL_RATE_LIMIT: '20/60s' }).AGENT_TOOL_RATE_LIMIT).toEqual({
      points: 20,
      windowMs: 60_000,
    });
    expect(parseConfig({ AGENT_TOOL_RATE_LIMIT: '5/2m' }).AGENT_TOOL_RATE_LIMIT).toEqual({
      points: 5,
      windowMs: 120_000,
    });
    expect(() => parseConfig({ AGENT_TOOL_RATE_LIMIT: 'lots' })).toThrow(/AGENT_TOOL_RATE_LIMIT/);
  });

  it('limits each user to 30 turns a minute and 20 waiting approvals unless told otherwise', () => {
    const config = parseConfig({});
    expect(config.TOOLGATE_USER_TURN_RATE_LIMIT).toEqual({ points: 30, windowMs: 60_000 });
    expect(config.TOOLGATE_MAX_PENDING_APPROVALS).toBe(20);
    expect(parseConfig({ TOOLGATE_USER_TURN_RATE_LIMIT: '100/10m' }).TOOLGATE_USER_TURN_RATE_LIMIT).toEqual({
      points: 100,
      windowMs: 600_000,
    });
    expect(
      parseConfig({ TOOLGATE_USER_TURN_RATE_LIMIT: 'off' }).TOOLGATE_USER_TURN_RATE_LIMIT,
    ).toBeUndefined();
    expect(() => parseConfig({ TOOLGATE_USER_TURN_RATE_LIMIT: 'none' })).toThrow(
      /TOOLGATE_USER_TURN_RATE_LIMIT.*"none"/,
    );
    expect(() => parseConfig({ TOOLGATE_MAX_PENDING_APPROVALS: '0' })).toThrow(
      /TOOLGATE_MAX_PENDING_APPROVALS/,
    );
  });

  it('trusts X-Forwarded-* headers only when TOOLGATE_TRUST_PROXY says so', () => {
    expect(parseConfig({}).TOOLGATE_TRUST_PROXY).toBe(false);
    expect(parseConfig({ TOOLGATE_TRUST_PROXY: '1' }).TOOLGATE_TRUST_PROXY).toBe(true);
    expect(parseConfig({ TOOLGATE_TRUST_PROXY: '0' }).TOOLGATE_TRUST_PROXY).toBe(false);
    expect(() => parseConfig({ TOOLGATE_TRUST_PROXY: 'yes please' })).toThrow(
      /TOOLGATE_TRUST_PROXY.*"yes please"/,
    );
  });

  it('reads allowed image origins as a list of origins and refuses anything broader or unsafe', () => {
    expect(parseConfig({}).TOOLGATE_ALLOWED_IMAGE_ORIGINS).toEqual([]);
    expect(
      parseConfig({ TOOLGATE_ALLOWED_IMAGE_ORIGINS: ' https://cdn.example.com/ , http://127.0.0.1:9000 ' })
        .TOOLGATE_ALLOWED_IMAGE_ORIGINS,
    ).toEqual(['https://cdn.example.com', 'http://127.0.0.1:9000']);
    for (const entry of ['https://cdn.example.com/images', 'cdn.example.com', 'javascript:alert(1)', '*']) {
      expect(() => parseConfig({ TOOLGATE_ALLOWED_IMAGE_ORIGINS: entry })).toThrow(
        /TOOLGATE_ALLOWED_IMAGE_ORIGINS/,
      );
    }
  });

  it('exports traces over OTLP/HTTP protobuf unless told JSON, and refuses gRPC or a bad endpoint', () => {
    expect(parseConfig({}).OTEL_EXPORTER_OTLP_ENDPOINT).toBeUndefined();
    expect(
      parseConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://localhost:4318' }).OTEL_EXPORTER_OTLP_PROTOCOL,
    ).toBe('http/protobuf');
    expect(parseConfig({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' }).OTEL_EXPORTER_OTLP_PROTOCOL).toBe(
      'http/json',
    );
    expect(() => parseConfig({ OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toThrow(
      /grpc is not supported.*"grpc"/,
    );
    expect(() => parseConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'localhost:4318' })).toThrow(
      /OTEL_EXPORTER_OTLP_ENDPOINT must be an http/,
    );
  });

  it('takes a metrics token of 16 characters or more', () => {
    expect(parseConfig({}).TOOLGATE_METRICS_TOKEN).toBeUndefined();
    expect(parseConfig({ TOOLGATE_METRICS_TOKEN: 'a'.repeat(16) }).TOOLGATE_METRICS_TOKEN).toBe(
      'a'.repeat(16),
    );
    expect(() => parseConfig({ TOOLGATE_METRICS_TOKEN: 'short' })).toThrow(
      /TOOLGATE_METRICS_TOKEN must be at least 16/,
    );
  });

  it('gives an undo 30 s unless told otherwise', () => {
    expect(parseConfig({}).TOOLGATE_UNDO_WINDOW_MS).toBe(30_000);
    expect(parseConfig({ TOOLGATE_UNDO_WINDOW_MS: '5000' }).TOOLGATE_UNDO_WINDOW_MS).toBe(5_000);
    expect(() => parseConfig({ TOOLGATE_UNDO_WINDOW_MS: '0' })).toThrow(/TOOLGATE_UNDO_WINDOW_MS/);
  });

  it('honours the crash fault only in tests, and refuses it alone or misspelt', () => {
    expect(parseConfig({}).TOOLGATE_FAULT).toBeUndefined();
    const testing = parseConfig({ TOOLGATE_FAULT: 'crash-after-effect', TOOLGATE_TESTING: '1' });
    expect(testing.TOOLGATE_FAULT).toBe('crash-after-effect');
    expect(() => parseConfig({ TOOLGATE_FAULT: 'crash-after-effect' })).toThrow(
      /TOOLGATE_FAULT=crash-after-effect is a test-only fault and needs TOOLGATE_TESTING=1/,
    );
    expect(() => parseConfig({ TOOLGATE_FAULT: 'crash-later', TOOLGATE_TESTING: '1' })).toThrow(
      /TOOLGATE_FAULT must be crash-after-effect/,
    );
  });
});
