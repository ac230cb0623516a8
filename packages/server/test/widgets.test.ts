import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../src/store/store.js';
import { isWidgetId, widgetCatalog } from '../src/widgets/catalog.js';
import {
  bucketingOf,
  bucketTimestamp,
  computeWidgetData,
  type WidgetSources,
  widgetItem,
} from '../src/widgets/compute.js';
import { applicationRecord, guardrailRecord, trace } from './fixtures.js';

describe('bucketing', () => {
  it('is hourly up to 48 hours, daily beyond', () => {
    expect(bucketingOf('2026-01-01T00:00:00.000Z', '2026-01-03T00:00:00.000Z')).toEqual({
      unit: 'hour',
      chars: 13,
    });
    expect(bucketingOf('2026-01-01T00:00:00.000Z', '2026-01-03T00:00:00.001Z')).toEqual({
      unit: 'day',
      chars: 10,
    });
  });

  it('names a bucket by its start', () => {
    const iso = '2026-01-31T12:34:56.789Z';
    expect(bucketTimestamp(iso.slice(0, 13))).toBe('2026-01-31T12:00:00.000Z');
    expect(bucketTimestamp(iso.slice(0, 10))).toBe('2026-01-31T00:00:00.000Z');
  });
});

describe('widget catalog', () => {
  it('has unique ids and knows them', () => {
    const ids = widgetCatalog.map((w) => w.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(isWidgetId(id)).toBe(true);
    expect(isWidgetId('nope')).toBe(false);
  });
});

describe('widgetItem', () => {
  const sources: WidgetSources = {
    traces: () => [
      { bucket: '2026-01-01T10', traces: 2, errors: 1, durationMsSum: 300, tokens: 15, tokenTraces: 1 },
      { bucket: '2026-01-01T11', traces: 1, errors: 0, durationMsSum: 50, tokens: 0, tokenTraces: 0 },
    ],
    scores: () => [
      { bucket: '2026-01-01T10', scores: 4, scoreSum: 3 },
      { bucket: '2026-01-01T11', scores: 0, scoreSum: 0 },
    ],
    guardrails: () => [{ bucket: '2026-01-01T12', runs: 3, failures: 2 }],
  };
  const h10 = '2026-01-01T10:00:00.000Z';
  const h11 = '2026-01-01T11:00:00.000Z';

  it('counts, averages and sums per bucket, with totals over the range', () => {
    expect(widgetItem('trace-volume', sources)).toEqual({
      type: 'trace-volume',
      points: [
        { timestamp: h10, value: 2 },
        { timestamp: h11, value: 1 },
      ],
      total: 3,
    });
    expect(widgetItem('latency', sources)).toEqual({
      type: 'latency',
      points: [
        { timestamp: h10, value: 150 },
        { timestamp: h11, value: 50 },
      ],
      total: 350 / 3,
    });
    expect(widgetItem('error-rate', sources).total).toBe(1 / 3);
    expect(widgetItem('metric-scores', sources)).toEqual({
      type: 'metric-scores',
      points: [{ timestamp: h10, value: 0.75 }],
      total: 0.75,
    });
    expect(widgetItem('token-usage', sources)).toEqual({
      type: 'token-usage',
      points: [{ timestamp: h10, value: 15 }],
      total: 15,
    });
    expect(widgetItem('guardrail-failures', sources)).toEqual({
      type: 'guardrail-failures',
      points: [{ timestamp: '2026-01-01T12:00:00.000Z', value: 2 }],
      total: 2,
    });
  });

  it('answers empty series with total 0', () => {
    const empty: WidgetSources = { traces: () => [], scores: () => [], guardrails: () => [] };
    for (const { id } of widgetCatalog)
      expect(widgetItem(id, empty)).toEqual({ type: id, points: [], total: 0 });
  });
});

describe('computeWidgetData with a store', () => {
  let store: Store;
  let appId: string;
  beforeEach(() => {
    store = openStore();
    const app = applicationRecord('p', 'w', '2026-01-01T00:00:00.000Z');
    store.applications.insert(app);
    appId = app.id;
  });
  afterEach(() => store.close());

  it('computes from the traces, results and records in the range, by hour', () => {
    const a = trace('2026-01-01T10:05:00.000Z', 100, { usage: { inputTokens: 4, outputTokens: 6 } });
    const b = trace('2026-01-01T10:45:00.000Z', 300, { status: 'error' });
    const c = trace('2026-01-01T13:00:00.000Z', 50, { usage: { totalTokens: 7 } });
    const outside = trace('2026-01-02T13:00:00.000Z', 999);
    for (const t of [a, b, c, outside]) store.traces.replace(appId, t);
    const score = (traceId: string, value: number) =>
      store.evaluationResults.insert(appId, {
        id: randomUUID(),
        traceId,
        metric: 'm',
        score: value,
        passed: true,
        createdAt: '2026-01-05T00:00:00.000Z',
      });
    score(a.traceId, 0.2);
    score(b.traceId, 0.6);
    score(c.traceId, 1);
    score(outside.traceId, 0);
    store.guardrailRecords.insert(
      appId,
      guardrailRecord(a.traceId, '2026-01-01T11:30:00.000Z', { passStatus: 'error' }),
    );
    store.guardrailRecords.insert(appId, guardrailRecord(b.traceId, '2026-01-01T11:40:00.000Z'));

    const [volume, latency, tokens, scores, failures] = computeWidgetData(
      store,
      appId,
      ['trace-volume', 'latency', 'token-usage', 'metric-scores', 'guardrail-failures'],
      '2026-01-01T00:00:00.000Z',
      '2026-01-01T23:59:59.999Z',
    );
    expect(volume).toEqual({
      type: 'trace-volume',
      points: [
        { timestamp: '2026-01-01T10:00:00.000Z', value: 2 },
        { timestamp: '2026-01-01T13:00:00.000Z', value: 1 },
      ],
      total: 3,
    });
    expect(latency?.points.map((p) => p.value)).toEqual([(100 + 300) / 2, 50]);
    expect(latency?.total).toBe((100 + 300 + 50) / 3);
    expect(tokens?.points.map((p) => p.value)).toEqual([4 + 6, 7]);
    expect(scores?.points.map((p) => p.value)).toEqual([(0.2 + 0.6) / 2, 1]);
    expect(scores?.total).toBeCloseTo((0.2 + 0.6 + 1) / 3, 12);
    expect(failures).toEqual({
      type: 'guardrail-failures',
      points: [{ timestamp: '2026-01-01T11:00:00.000Z', value: 1 }],
      total: 1,
    });
  });
});
