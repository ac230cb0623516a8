import { widgetDataBodySchema, widgetDataItemSchema, widgetPointSchema, widgetSchema } from '@aqm/wire';
import { describe, expect, it } from 'vitest';
import { accepted, rejected } from './parse-helpers.js';

const range = { start: '2026-01-01T00:00:00Z', end: '2026-01-31T00:00:00Z' };

describe('widgetDataBodySchema', () => {
  it('accepts types and a range, normalising the range to UTC', () => {
    expect(
      accepted(widgetDataBodySchema, { types: ['trace-count', 'latency'], ...range, end: range.start }),
    ).toEqual({
      types: ['trace-count', 'latency'],
      start: '2026-01-01T00:00:00.000Z',
      end: '2026-01-01T00:00:00.000Z',
    });
  });

  it('says "is required" for each missing field', () => {
    expect(rejected(widgetDataBodySchema, {})).toEqual([
      { path: 'types', message: 'is required' },
      { path: 'start', message: 'is required' },
      { path: 'end', message: 'is required' },
    ]);
  });

  it('rejects bad types with indexed paths', () => {
    expect(rejected(widgetDataBodySchema, { types: ['ok', '', 3], ...range })).toEqual([
      { path: 'types[1]', message: 'must be at least 1 character' },
      { path: 'types[2]', message: 'must be a string' },
    ]);
    expect(rejected(widgetDataBodySchema, { types: [], ...range })).toEqual([
      { path: 'types', message: 'must hold at least 1 widget id' },
    ]);
    expect(rejected(widgetDataBodySchema, { types: 'latency', ...range })).toEqual([
      { path: 'types', message: 'must be an array of widget ids' },
    ]);
  });

  it('rejects unknown fields and a reversed range', () => {
    expect(
      rejected(widgetDataBodySchema, { types: ['a'], start: range.end, end: range.start, period: 'day' }),
    ).toEqual([
      { path: 'period', message: 'is not a known field' },
      { path: 'end', message: 'must be on or after start' },
    ]);
  });
});

describe('widget response shapes', () => {
  it('accept a widget and a data item', () => {
    const widget = { id: 'trace-count', name: 'Traces', description: 'Traces per day' };
    expect(accepted(widgetSchema, widget)).toEqual(widget);
    const item = {
      type: 'trace-count',
      points: [{ timestamp: '2026-01-01T00:00:00.000Z', value: 3 }],
      total: 3,
    };
    expect(accepted(widgetDataItemSchema, item)).toEqual(item);
  });

  it('reject a point without a numeric value', () => {
    expect(
      rejected(widgetPointSchema, { timestamp: '2026-01-01T00:00:00.000Z', value: '3' }).map((e) => e.path),
    ).toEqual(['value']);
    expect(
      rejected(widgetDataItemSchema, {
        type: 'x',
        points: [{ timestamp: 't', value: 1 }, { timestamp: 't' }],
        total: 1,
      }).map((e) => e.path),
    ).toEqual(['points[1].value']);
  });
});
