import { type RunningServer, startServer, widgetCatalog } from '@aqm/server';
import { type EvaluationTrace, widgetDataItemSchema, widgetSchema } from '@aqm/wire';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caller, makeTrace, uniqueName } from './helpers.js';

const HOUR = 3_600_000;

/** The bucket start of an ISO time: its hour, or its day. */
function bucketOf(iso: string, unit: 'hour' | 'day'): string {
  return unit === 'hour' ? `${iso.slice(0, 13)}:00:00.000Z` : `${iso.slice(0, 10)}T00:00:00.000Z`;
}

/** Groups values by bucket, in time order. */
function grouped(
  items: Array<{ time: string; value: number }>,
  unit: 'hour' | 'day',
): Array<[string, number[]]> {
  const map = new Map<string, number[]>();
  for (const { time, value } of items) {
    const key = bucketOf(time, unit);
    map.set(key, [...(map.get(key) ?? []), value]);
  }
  return [...map.entries()].sort(([a], [b]) => a.localeCompare(b));
}

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
const mean = (values: number[]) => (values.length === 0 ? 0 : sum(values) / values.length);

interface Series {
  type: string;
  points: Array<{ timestamp: string; value: number }>;
  total: number;
}

function expectSeries(actual: Series, expected: Series): void {
  expect(actual.type).toBe(expected.type);
  expect(actual.points.map((p) => p.timestamp)).toEqual(expected.points.map((p) => p.timestamp));
  actual.points.forEach((p, i) => {
    expect(p.value).toBeCloseTo(expected.points[i]?.value ?? Number.NaN, 9);
  });
  expect(actual.total).toBeCloseTo(expected.total, 9);
}

function series(
  type: string,
  groups: Array<[string, number[]]>,
  point: (v: number[]) => number,
  total: number,
): Series {
  return { type, points: groups.map(([timestamp, values]) => ({ timestamp, value: point(values) })), total };
}

const tokensOf = (t: EvaluationTrace) =>
  t.usage?.totalTokens ??
  (t.usage === undefined ? undefined : (t.usage.inputTokens ?? 0) + (t.usage.outputTokens ?? 0));
const durationOf = (t: EvaluationTrace) => Date.parse(t.endTime) - Date.parse(t.startTime);

describe('widgets', () => {
  let srv: RunningServer;
  let call: ReturnType<typeof caller>;
  beforeAll(async () => {
    srv = await startServer({ apiKeys: [{ key: 'k', projectId: 'p' }] });
    call = caller(srv.url, 'k');
  });
  afterAll(() => srv.close());

  async function newApp(): Promise<string> {
    return (await call('POST', '/applications', { json: { name: uniqueName('widgets') } })).body.data.id;
  }
  const widgetData = (id: string, json: unknown) => call('POST', `/applications/${id}/widget-data`, { json });

  it('lists the widget types, the same as the exported catalog', async () => {
    const res = await call('GET', '/widgets');
    expect(res.status).toBe(200);
    const ids = res.body.data.map((w: unknown) => widgetSchema.strict().parse(w).id);
    expect(ids).toEqual(widgetCatalog.map((w) => w.id));
    expect(ids).toEqual(
      expect.arrayContaining([
        'trace-volume',
        'latency',
        'metric-scores',
        'guardrail-failures',
        'token-usage',
      ]),
    );
  });

  describe('data over a range of hours', () => {
    let id: string;
    let traces: EvaluationTrace[];
    let start: string;
    let end: string;
    beforeAll(async () => {
      id = await newApp();
      const metrics = (await call('GET', '/metrics/eval')).body.data
        .slice(0, 3)
        .map((m: { name: string }) => ({ type: m.name }));
      await call('PUT', `/applications/${id}/monitoring`, { json: { metrics } });
      await call('PUT', `/applications/${id}/guardrails`, {
        json: { enable_guard_rails: true, input_validators: [{ type: 'pii', on_fail: 'mask' }] },
      });
      const base = Math.floor(Date.now() / HOUR) * HOUR - 3 * HOUR;
      traces = [
        makeTrace(new Date(base + 10 * 60_000), 100, { usage: { totalTokens: 15 } }),
        makeTrace(new Date(base + 20 * 60_000), 300, { status: 'error', prompt: 'mail me at a@example.com' }),
        makeTrace(new Date(base + HOUR + 5 * 60_000), 200, { usage: { inputTokens: 7, outputTokens: 3 } }),
        makeTrace(new Date(base + 2 * HOUR + 30 * 60_000), 250, {
          prompt: 'call +1 415 555 0100 or b@example.org',
        }),
      ];
      start = new Date(base).toISOString();
      await call('POST', `/applications/${id}/evaluations`, { json: { traces } });
      // Guardrail records are stamped with the time of submission, so the range reaches past now.
      end = new Date(Date.now() + HOUR).toISOString();
    });

    it('answers the types one-to-one and in order (repeats included)', async () => {
      const types = ['token-usage', 'trace-volume', 'latency', 'token-usage'];
      const res = await widgetData(id, { types, start, end });
      expect(res.status).toBe(200);
      expect(res.body.success).toBe(true);
      expect(res.body.data.map((item: unknown) => widgetDataItemSchema.strict().parse(item).type)).toEqual(
        types,
      );
      expect(res.body.data[3]).toEqual(res.body.data[0]);
    });

    it('computes trace volume, latency, error rate and token usage by hour from the stored traces', async () => {
      const types = ['trace-volume', 'latency', 'error-rate', 'token-usage'];
      const res = await widgetData(id, { types, start, end });
      const byStart = (value: (t: EvaluationTrace) => number | undefined) =>
        grouped(
          traces.flatMap((t) => {
            const v = value(t);
            return v === undefined ? [] : [{ time: t.startTime, value: v }];
          }),
          'hour',
        );
      const all = traces.length;
      const errors = traces.filter((t) => t.status === 'error').length;
      const tokenGroups = byStart(tokensOf);
      expectSeries(
        res.body.data[0],
        series(
          'trace-volume',
          byStart(() => 1),
          (v) => v.length,
          all,
        ),
      );
      expectSeries(
        res.body.data[1],
        series('latency', byStart(durationOf), mean, mean(traces.map(durationOf))),
      );
      expectSeries(
        res.body.data[2],
        series(
          'error-rate',
          byStart((t) => (t.status === 'error' ? 1 : 0)),
          mean,
          errors / all,
        ),
      );
      expectSeries(
        res.body.data[3],
        series('token-usage', tokenGroups, sum, sum(tokenGroups.flatMap(([, v]) => v))),
      );
    });

    it('computes metric scores from the evaluation results, by the trace startTime', async () => {
      const scored: Array<{ time: string; value: number }> = [];
      for (const t of traces) {
        const read = (await call('GET', `/applications/${id}/traces/${t.traceId}`)).body.data;
        for (const r of read.evaluationResults) scored.push({ time: t.startTime, value: r.score });
      }
      expect(scored.length).toBe(traces.length * 3);
      const res = await widgetData(id, { types: ['metric-scores'], start, end });
      expectSeries(
        res.body.data[0],
        series('metric-scores', grouped(scored, 'hour'), mean, mean(scored.map((s) => s.value))),
      );
    });

    it('counts guardrail failures from the guardrail records', async () => {
      const records = (
        await call('GET', `/applications/${id}/guardrails/evaluations?start=${start}&end=${end}&limit=100`)
      ).body.data.results as Array<{ created_at: string; passStatus: string }>;
      const failures = records.filter((r) => r.passStatus === 'error');
      expect(failures.length).toBeGreaterThan(0);
      const res = await widgetData(id, { types: ['guardrail-failures'], start, end });
      expectSeries(
        res.body.data[0],
        series(
          'guardrail-failures',
          grouped(
            records.map((r) => ({ time: r.created_at, value: r.passStatus === 'error' ? 1 : 0 })),
            'hour',
          ),
          sum,
          failures.length,
        ),
      );
    });

    it('leaves out what is outside the inclusive range', async () => {
      const first = traces[0] as EvaluationTrace;
      const onlyFirst = await widgetData(id, {
        types: ['trace-volume'],
        start: first.startTime,
        end: first.startTime,
      });
      expect(onlyFirst.body.data[0]).toEqual({
        type: 'trace-volume',
        points: [{ timestamp: bucketOf(first.startTime, 'hour'), value: 1 }],
        total: 1,
      });
      const empty = await widgetData(id, {
        types: ['trace-volume', 'latency'],
        start: '2020-01-01T00:00:00Z',
        end: '2020-01-01T01:00:00Z',
      });
      expect(empty.body.data).toEqual([
        { type: 'trace-volume', points: [], total: 0 },
        { type: 'latency', points: [], total: 0 },
      ]);
    });
  });

  it('buckets by day when the range is longer than 48 hours', async () => {
    const id = await newApp();
    const traces = [
      makeTrace('2026-04-01T03:00:00Z', 10),
      makeTrace('2026-04-01T22:00:00Z', 10),
      makeTrace('2026-04-03T12:00:00Z', 10),
    ];
    await call('POST', `/applications/${id}/evaluations`, { json: { traces } });
    const res = await widgetData(id, {
      types: ['trace-volume'],
      start: '2026-04-01T00:00:00Z',
      end: '2026-04-05T00:00:00Z',
    });
    const groups = grouped(
      traces.map((t) => ({ time: t.startTime, value: 1 })),
      'day',
    );
    expectSeries(
      res.body.data[0],
      series('trace-volume', groups, (v) => v.length, traces.length),
    );
  });

  it.each([
    [{ types: ['trace-volume', 'nope'] }, 'types[1]'],
    [{ types: ['', 'latency'] }, 'types[0]'],
    [{ types: [] }, 'types'],
    [{ types: 'latency' }, 'types'],
  ])('refuses %j at %s', async (types, path) => {
    const id = await newApp();
    const res = await widgetData(id, {
      start: '2026-01-01T00:00:00Z',
      end: '2026-01-02T00:00:00Z',
      ...types,
    });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ path, message: expect.any(String) }]);
  });

  it('refuses end before start, and a missing start', async () => {
    const id = await newApp();
    const reversed = await widgetData(id, {
      types: ['latency'],
      start: '2026-01-02T00:00:00Z',
      end: '2026-01-01T00:00:00Z',
    });
    expect(reversed.body.errors).toEqual([{ path: 'end', message: expect.any(String) }]);
    const missing = await widgetData(id, { types: ['latency'], end: '2026-01-01T00:00:00Z' });
    expect(missing.body.errors).toEqual([{ path: 'start', message: 'is required' }]);
  });
});
