import { type RunningServer, startServer } from '@aqm/server';
import {
  type EvalMetric,
  evaluationResultSchema,
  type Span,
  traceSchema,
  traceSummarySchema,
} from '@aqm/wire';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caller, makeTrace, newTraceId, uniqueName } from './helpers.js';

describe('trace submission and results', () => {
  let srv: RunningServer;
  let call: ReturnType<typeof caller>;
  let metricNames: string[];
  beforeAll(async () => {
    srv = await startServer({ apiKeys: [{ key: 'k', projectId: 'p' }] });
    call = caller(srv.url, 'k');
    metricNames = ((await call('GET', '/metrics/eval')).body.data as EvalMetric[]).map((m) => m.name);
  });
  afterAll(() => srv.close());

  /** An application scoring every catalog metric, the first one with a threshold of 0.3. */
  async function scoredApp(): Promise<string> {
    const id = (await call('POST', '/applications', { json: { name: uniqueName('eval') } })).body.data.id;
    const metrics = metricNames.map((type, i) => (i === 0 ? { type, threshold: 0.3 } : { type }));
    expect((await call('PUT', `/applications/${id}/monitoring`, { json: { metrics } })).status).toBe(200);
    return id;
  }
  const submit = (id: string, traces: unknown[]) =>
    call('POST', `/applications/${id}/evaluations`, { json: { traces } });

  it('stores, scores and answers { accepted, traceIds }; results are readable at once', async () => {
    const id = await scoredApp();
    const span: Span = {
      spanId: 'a1b2c3d4e5f60718',
      name: 'chat gpt-4o',
      kind: 'client',
      startTime: '2026-01-31T12:00:00.000Z',
      endTime: '2026-01-31T12:00:01.000Z',
      status: { code: 'ok' },
      attributes: { 'gen_ai.system': 'openai' },
      events: [{ name: 'gen_ai.content.prompt', time: '2026-01-31T12:00:00.100Z' }],
    };
    const t = makeTrace('2026-01-31T12:00:00+01:00', 1000, {
      model: 'gpt-4o',
      usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15 },
      context: ['Paris is the capital and largest city of France.'],
      metadata: { tenant: 'acme', retries: 0 },
      spans: [span],
    });
    const res = await submit(id, [t]);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: { accepted: 1, traceIds: [t.traceId] } });

    const read = await call('GET', `/applications/${id}/traces/${t.traceId}`);
    expect(read.status).toBe(200);
    const trace = traceSchema.parse(read.body.data);
    expect(trace).toMatchObject({
      traceId: t.traceId,
      applicationId: id,
      startTime: '2026-01-31T11:00:00.000Z',
      endTime: '2026-01-31T11:00:01.000Z',
      spanCount: 1,
      status: 'success',
      prompt: t.prompt,
      response: t.response,
      model: 'gpt-4o',
      usage: t.usage,
      context: t.context,
      metadata: t.metadata,
      spans: [span],
    });
    expect((trace.evaluationResults ?? []).map((r) => r.metric)).toEqual(metricNames);
    for (const r of trace.evaluationResults ?? []) {
      expect(r.traceId).toBe(t.traceId);
      expect(r.score).toBeGreaterThanOrEqual(0);
      expect(r.score).toBeLessThanOrEqual(1);
      if (r.threshold !== undefined) expect(r.passed).toBe(r.score >= r.threshold);
    }
    expect((trace.evaluationResults ?? [])[0]?.threshold).toBe(0.3);

    const listed = await call('GET', `/applications/${id}/evaluations?traceId=${t.traceId}&limit=100`);
    expect(listed.body.pagination.total).toBe(metricNames.length);
    const results = listed.body.data.map((r: unknown) => evaluationResultSchema.parse(r));
    expect(results.map((r: { id: string }) => r.id).sort()).toEqual(
      (trace.evaluationResults ?? []).map((r) => r.id).sort(),
    );
  });

  it('replaces a trace sent again, with its old results', async () => {
    const id = await scoredApp();
    const t = makeTrace('2026-02-01T10:00:00Z', 500, { prompt: 'first version' });
    await submit(id, [t]);
    const firstIds = (
      await call('GET', `/applications/${id}/traces/${t.traceId}`)
    ).body.data.evaluationResults.map((r: { id: string }) => r.id);
    const again = { ...t, prompt: 'second version', status: 'error' };
    expect((await submit(id, [again])).body.data).toEqual({ accepted: 1, traceIds: [t.traceId] });
    const read = (await call('GET', `/applications/${id}/traces/${t.traceId}`)).body.data;
    expect(read).toMatchObject({ prompt: 'second version', status: 'error' });
    expect(read.evaluationResults).toHaveLength(metricNames.length);
    expect((read.evaluationResults ?? []).map((r: { id: string }) => r.id)).not.toEqual(
      expect.arrayContaining(firstIds),
    );
    const list = await call('GET', `/applications/${id}/traces`);
    expect(list.body.pagination.total).toBe(1);
    const evaluations = await call('GET', `/applications/${id}/evaluations?limit=100`);
    expect(evaluations.body.pagination.total).toBe(metricNames.length);
  });

  it('keeps the last of a traceId repeated in one submission', async () => {
    const id = await scoredApp();
    const t = makeTrace('2026-02-01T10:00:00Z', 500, { prompt: 'one' });
    const u = makeTrace('2026-02-01T11:00:00Z', 500);
    const res = await submit(id, [t, u, { ...t, prompt: 'two' }]);
    expect(res.body.data).toEqual({ accepted: 2, traceIds: [t.traceId, u.traceId] });
    expect((await call('GET', `/applications/${id}/traces/${t.traceId}`)).body.data.prompt).toBe('two');
  });

  it('scores nothing when no metric is configured (the trace is still stored)', async () => {
    const id = (await call('POST', '/applications', { json: { name: uniqueName('nometrics') } })).body.data
      .id;
    const t = makeTrace('2026-02-01T10:00:00Z', 10);
    await submit(id, [t]);
    const read = (await call('GET', `/applications/${id}/traces/${t.traceId}`)).body.data;
    expect(read.evaluationResults).toEqual([]);
    expect(read.spans).toEqual([]);
    expect(read.spanCount).toBe(0);
  });

  describe('validation', () => {
    let id: string;
    beforeAll(async () => {
      id = await scoredApp();
    });

    it('refuses 0 or more than 100 traces', async () => {
      const none = await submit(id, []);
      expect(none.status).toBe(400);
      expect(none.body.errors).toEqual([{ path: 'traces', message: expect.stringContaining('1 to 100') }]);
      const many = Array.from({ length: 101 }, () => makeTrace('2026-02-01T10:00:00Z', 1));
      expect((await submit(id, many)).body.errors).toEqual([{ path: 'traces', message: expect.any(String) }]);
      expect((await submit(id, many.slice(0, 100))).body.data.accepted).toBe(100);
    });

    it('names each bad field with its indexed path', async () => {
      const good = makeTrace('2026-02-01T10:00:00Z', 1);
      const res = await submit(id, [
        good,
        { ...good, traceId: 'XYZ', endTime: '2026-02-01T09:00:00Z' },
        { ...good, traceId: newTraceId(), spans: [{ spanId: 'short' }] },
      ]);
      expect(res.status).toBe(400);
      const paths = res.body.errors.map((e: { path: string }) => e.path);
      expect(paths).toEqual(
        expect.arrayContaining([
          'traces[1].traceId',
          'traces[1].endTime',
          'traces[2].spans[0].spanId',
          'traces[2].spans[0].kind',
        ]),
      );
      expect((await call('GET', `/applications/${id}/traces/${good.traceId}`)).status).toBe(404);
    });

    it('answers 400 for a malformed traceId in the path and 404 for an unknown one', async () => {
      const bad = await call('GET', `/applications/${id}/traces/not-hex`);
      expect(bad.status).toBe(400);
      expect(bad.body.errors).toEqual([{ path: 'traceId', message: expect.any(String) }]);
      const unknown = await call('GET', `/applications/${id}/traces/${newTraceId()}`);
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ success: false, message: expect.any(String) });
    });
  });

  describe('lists', () => {
    let id: string;
    const traces = [
      makeTrace('2026-03-01T10:00:00Z', 100, { prompt: 'Tell me about Rome', response: 'Rome is old.' }),
      makeTrace('2026-03-01T11:00:00Z', 100, { status: 'error', errorMessage: 'timeout', response: '' }),
      makeTrace('2026-03-01T12:00:00Z', 100, { prompt: 'about BERLIN?', response: 'Berlin is big.' }),
      makeTrace('2026-03-02T12:00:00Z', 100),
    ];
    beforeAll(async () => {
      id = await scoredApp();
      await submit(id, [traces[2], traces[0], traces[3], traces[1]]);
    });
    const ids = async (query: string) =>
      (await call('GET', `/applications/${id}/traces${query}`)).body.data.map(
        (t: { traceId: string }) => t.traceId,
      );
    const tid = (i: number) => traces[i]?.traceId;

    it('lists trace summaries newest first by startTime', async () => {
      const res = await call('GET', `/applications/${id}/traces`);
      expect(res.body.pagination).toEqual({ page: 1, limit: 20, total: 4, totalPages: 1 });
      for (const item of res.body.data) traceSummarySchema.strict().parse(item);
      expect(await ids('')).toEqual([tid(3), tid(2), tid(1), tid(0)]);
      expect(await ids('?limit=2&page=2')).toEqual([tid(1), tid(0)]);
    });

    it('filters by inclusive startTime range, status and search over prompt and response', async () => {
      expect(await ids('?start=2026-03-01T11:00:00Z&end=2026-03-01T12:00:00Z')).toEqual([tid(2), tid(1)]);
      expect(await ids('?status=error')).toEqual([tid(1)]);
      expect(await ids('?search=berlin')).toEqual([tid(2)]);
      expect(await ids('?search=ROME')).toEqual([tid(0)]);
      const bad = await call(
        'GET',
        `/applications/${id}/traces?start=2026-03-02T00:00:00Z&end=2026-03-01T00:00:00Z`,
      );
      expect(bad.body.errors).toEqual([{ path: 'end', message: expect.any(String) }]);
    });

    it('lists evaluation results newest first, filtered by metric and traceId', async () => {
      const metric = metricNames[1] as string;
      const res = await call('GET', `/applications/${id}/evaluations?metric=${metric}`);
      expect(res.body.pagination.total).toBe(traces.length);
      expect(res.body.data.every((r: { metric: string }) => r.metric === metric)).toBe(true);
      const created = res.body.data.map((r: { createdAt: string }) => r.createdAt);
      expect(created).toEqual([...created].sort().reverse());
      const one = await call('GET', `/applications/${id}/evaluations?traceId=${tid(0)}&metric=${metric}`);
      expect(one.body.data).toHaveLength(1);
      const bad = await call('GET', `/applications/${id}/evaluations?limit=1000`);
      expect(bad.body.errors).toEqual([{ path: 'limit', message: expect.any(String) }]);
    });
  });
});
