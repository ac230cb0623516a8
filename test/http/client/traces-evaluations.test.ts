import type { EvaluationTraceInput, SubmitEvaluationsResult } from '@aqm/client';
import {
  evaluationResultSchema,
  paginationSchema,
  submitEvaluationsResultSchema,
  traceSchema,
  traceSummarySchema,
} from '@aqm/wire';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collect, makeTrace, newSpanId, type Service, startService, uniqueName } from './helpers.js';

/** The metrics configured on the application: one per trace each. */
const METRICS = ['success_rate', 'latency'] as const;
const MAX_LATENCY_MS = 500;

// client.evaluations and client.traces against the local service: traces submitted once, then
// read back through every list, get and iterate.
describe('client.evaluations and client.traces', () => {
  let service: Service;
  let appId: string;
  let traces: EvaluationTraceInput[];
  let submitted: SubmitEvaluationsResult;
  let submittedAt: { before: number; after: number };
  const iso = (value: Date | string) => new Date(value).toISOString();

  beforeAll(async () => {
    service = await startService();
    const { client } = service;
    appId = (await client.applications.create({ name: uniqueName('scored') })).id;
    await client.monitoring.update(appId, {
      metrics: [{ type: 'success_rate' }, { type: 'latency', maxLatencyMs: MAX_LATENCY_MS }],
    });
    const start = Date.now() - 3_600_000;
    // Seven traces a minute apart: every third one failed, durations alternate under and over budget.
    traces = Array.from({ length: 7 }, (_, i) =>
      makeTrace(start + i * 60_000, i % 2 === 0 ? 200 : 1000, {
        prompt: `Question number ${i} about refunds`,
        response: `Answer number ${i}: refunds take 30 days.`,
        status: i % 3 === 2 ? 'error' : 'success',
        ...(i % 3 === 2 ? { errorMessage: 'upstream model timed out' } : {}),
        model: 'gpt-test',
        usage: { inputTokens: 10 + i, outputTokens: 20, totalTokens: 30 + i },
      }),
    );
    const first = traces[0]!;
    first.spans = [
      {
        spanId: newSpanId(),
        name: 'chat gpt-test',
        kind: 'client',
        startTime: first.startTime,
        endTime: first.endTime,
        status: { code: 'ok' },
        attributes: { 'gen_ai.request.model': 'gpt-test', 'gen_ai.usage.input_tokens': 10 },
        events: [{ name: 'first-token', time: new Date(Date.parse(iso(first.startTime)) + 50) }],
      },
    ];
    const before = Date.now();
    submitted = await client.evaluations.submit(appId, { traces });
    submittedAt = { before, after: Date.now() };
  });
  afterAll(() => service.stop());

  /** The traces newest first by startTime, as the lists order them. */
  const newestFirst = () => [...traces].reverse();

  it('evaluations.submit accepts the traces and answers their ids in order', () => {
    expect(submitEvaluationsResultSchema.parse(submitted)).toEqual({
      accepted: traces.length,
      traceIds: traces.map((t) => t.traceId),
    });
  });

  it('traces.get returns the trace as submitted, with its spans and evaluation results', async () => {
    const first = traces[0]!;
    const trace = traceSchema.parse(await service.client.traces.get(appId, first.traceId));
    expect(trace).toMatchObject({
      traceId: first.traceId,
      applicationId: appId,
      prompt: first.prompt,
      response: first.response,
      startTime: iso(first.startTime),
      endTime: iso(first.endTime),
      status: first.status,
      spanCount: 1,
      model: first.model,
      usage: first.usage,
    });
    const span = first.spans![0]!;
    expect(trace.spans).toEqual([
      {
        ...span,
        startTime: iso(span.startTime),
        endTime: iso(span.endTime),
        events: [{ name: 'first-token', time: iso(span.events![0]!.time) }],
      },
    ]);
    expect((trace.evaluationResults ?? []).map((r) => r.metric).sort()).toEqual([...METRICS].sort());
    for (const result of trace.evaluationResults ?? []) expect(result.traceId).toBe(first.traceId);
  });

  it('traces.list answers a page newest first by startTime, with pagination', async () => {
    const page = await service.client.traces.list(appId, { limit: 3 });
    expect(paginationSchema.parse(page.pagination)).toEqual({ page: 1, limit: 3, total: 7, totalPages: 3 });
    const expected = newestFirst().slice(0, 3);
    expect(page.data.map((t) => traceSummarySchema.parse(t))).toEqual(
      expected.map((t) => ({
        traceId: t.traceId,
        applicationId: appId,
        startTime: iso(t.startTime),
        endTime: iso(t.endTime),
        spanCount: t.spans?.length ?? 0,
        status: t.status,
        prompt: t.prompt,
        response: t.response,
      })),
    );
    const failed = await service.client.traces.list(appId, { status: 'error' });
    expect(failed.data.map((t) => t.traceId)).toEqual(
      newestFirst()
        .filter((t) => t.status === 'error')
        .map((t) => t.traceId),
    );
  });

  it('traces.iterate walks every page (3 here), newest first', async () => {
    const before = service.srv.requestCount('traces.list');
    const walked = await collect(service.client.traces.iterate(appId, { limit: 3 }));
    expect(walked.map((t) => traceSummarySchema.parse(t).traceId)).toEqual(
      newestFirst().map((t) => t.traceId),
    );
    expect(service.srv.requestCount('traces.list') - before).toBe(3);
  });

  it('evaluations.list answers the scores of a trace, computed from what was submitted', async () => {
    for (const trace of traces) {
      const page = await service.client.evaluations.list(appId, { traceId: trace.traceId });
      expect(page.pagination).toEqual({ page: 1, limit: 20, total: METRICS.length, totalPages: 1 });
      const results = page.data.map((r) => evaluationResultSchema.parse(r));
      const byMetric = Object.fromEntries(results.map((r) => [r.metric, r]));
      const successScore = trace.status === 'success' ? 1 : 0;
      expect(byMetric.success_rate).toMatchObject({ traceId: trace.traceId, score: successScore });
      const durationMs = Date.parse(iso(trace.endTime)) - Date.parse(iso(trace.startTime));
      const latencyScore = durationMs <= MAX_LATENCY_MS ? 1 : MAX_LATENCY_MS / durationMs;
      expect(byMetric.latency?.score).toBeCloseTo(latencyScore, 4);
      for (const result of results) {
        expect(Date.parse(result.createdAt)).toBeGreaterThanOrEqual(submittedAt.before);
        expect(Date.parse(result.createdAt)).toBeLessThanOrEqual(submittedAt.after);
      }
    }
    const latencyOnly = await service.client.evaluations.list(appId, { metric: 'latency', limit: 100 });
    expect(latencyOnly.data.map((r) => r.traceId).sort()).toEqual(traces.map((t) => t.traceId).sort());
  });

  it('evaluations.iterate walks every page (3 here) and yields each result once', async () => {
    const before = service.srv.requestCount('evaluations.list');
    const results = await collect(service.client.evaluations.iterate(appId, { limit: 6 }));
    expect(results).toHaveLength(traces.length * METRICS.length);
    expect(new Set(results.map((r) => evaluationResultSchema.parse(r).id)).size).toBe(results.length);
    for (const metric of METRICS) {
      expect(
        results
          .filter((r) => r.metric === metric)
          .map((r) => r.traceId)
          .sort(),
      ).toEqual(traces.map((t) => t.traceId).sort());
    }
    // 14 results in pages of 6, 6 and 2.
    expect(service.srv.requestCount('evaluations.list') - before).toBe(3);
  });
});
