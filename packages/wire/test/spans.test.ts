import { SPAN_KINDS, spanEventSchema, spanSchema, usageSchema } from '@aqm/wire';
import { describe, expect, it } from 'vitest';
import { span } from './fixtures.js';
import { accepted, rejected } from './parse-helpers.js';

describe('spanSchema and spanEventSchema', () => {
  it.each(SPAN_KINDS)('accept a span of kind %s', (kind) => {
    expect(accepted(spanSchema, { ...span(), kind })).toEqual({ ...span(), kind });
  });

  it('accept a child span with a status message and no events', () => {
    const { events: _, ...child } = {
      ...span(),
      parentSpanId: 'a1b2c3d4e5f60718',
      status: { code: 'error', message: 'boom' },
    };
    expect(accepted(spanSchema, child)).toEqual(child);
  });

  it('say "is required" for each missing required field', () => {
    expect(rejected(spanSchema, {})).toEqual(
      ['spanId', 'name', 'kind', 'startTime', 'endTime', 'status', 'attributes'].map((path) => ({
        path,
        message: 'is required',
      })),
    );
    expect(rejected(spanEventSchema, {})).toEqual([
      { path: 'name', message: 'is required' },
      { path: 'time', message: 'is required' },
    ]);
  });

  it('reject each bad value with its path and message', () => {
    const bad = {
      ...span(),
      parentSpanId: 'root',
      kind: 'SPAN_KIND_CLIENT',
      status: { code: 'OK' },
      attributes: 'model=gpt-4o',
      events: [{ name: 'e', time: 'now', attributes: [] }],
    };
    expect(rejected(spanSchema, bad)).toEqual([
      { path: 'parentSpanId', message: 'must be 16 lowercase hex characters' },
      { path: 'kind', message: 'must be one of internal, server, client, producer, consumer' },
      { path: 'status.code', message: 'must be one of unset, ok, error' },
      { path: 'attributes', message: 'must be an object' },
      { path: 'events[0].time', message: 'must be an ISO 8601 date-time, for example 2026-01-31T12:00:00Z' },
      { path: 'events[0].attributes', message: 'must be an object' },
    ]);
    expect(rejected(spanSchema, { ...span(), status: 'ok' })).toEqual([
      { path: 'status', message: 'must be an object with a code' },
    ]);
  });
});

describe('usageSchema', () => {
  it('accepts any subset of the three counts', () => {
    expect(accepted(usageSchema, {})).toEqual({});
    expect(accepted(usageSchema, { totalTokens: 0 })).toEqual({ totalTokens: 0 });
  });
});
