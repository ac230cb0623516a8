import {
  evaluationTraceSchema,
  listTracesQuerySchema,
  MAX_BODY_BYTES,
  MAX_TRACES_PER_SUBMISSION,
  SPAN_KINDS,
  SPAN_STATUS_CODES,
  spanIdSchema,
  submitEvaluationsBodySchema,
  submitEvaluationsResultSchema,
  TRACE_STATUSES,
  traceIdSchema,
  traceSchema,
  traceSummarySchema,
} from '@aqm/wire';
import { describe, expect, it } from 'vitest';
import { APP_ID, evaluationResult, evaluationTrace, SPAN_ID, span, TRACE_ID } from './fixtures.js';
import { accepted, rejected } from './parse-helpers.js';

describe('limits and value sets', () => {
  it('match the contract decisions', () => {
    expect(MAX_TRACES_PER_SUBMISSION).toBe(100);
    expect(MAX_BODY_BYTES).toBe(5 * 1024 * 1024);
    expect(TRACE_STATUSES).toEqual(['success', 'error']);
    expect(SPAN_KINDS).toEqual(['internal', 'server', 'client', 'producer', 'consumer']);
    expect(SPAN_STATUS_CODES).toEqual(['unset', 'ok', 'error']);
  });
});

describe('traceIdSchema and spanIdSchema', () => {
  it('accept lowercase hex of 32 and 16 characters', () => {
    expect(accepted(traceIdSchema, TRACE_ID)).toBe(TRACE_ID);
    expect(accepted(spanIdSchema, SPAN_ID)).toBe(SPAN_ID);
  });

  it.each([[TRACE_ID.toUpperCase()], [TRACE_ID.slice(1)], [`${TRACE_ID}0`], [`${TRACE_ID.slice(1)}g`]])(
    'reject the trace id %s',
    (id) => {
      expect(rejected(traceIdSchema, id)).toEqual([
        { path: '$', message: 'must be 32 lowercase hex characters' },
      ]);
    },
  );

  it('reject a span id of the wrong length or case and a non-string', () => {
    expect(rejected(spanIdSchema, SPAN_ID.toUpperCase())).toEqual([
      { path: '$', message: 'must be 16 lowercase hex characters' },
    ]);
    expect(rejected(spanIdSchema, TRACE_ID)).toEqual([
      { path: '$', message: 'must be 16 lowercase hex characters' },
    ]);
    expect(rejected(spanIdSchema, 16)).toEqual([
      { path: '$', message: 'must be a string of 16 lowercase hex characters' },
    ]);
    expect(rejected(traceIdSchema, 32)).toEqual([
      { path: '$', message: 'must be a string of 32 lowercase hex characters' },
    ]);
  });
});

describe('evaluationTraceSchema', () => {
  it('accepts a full trace', () => {
    expect(accepted(evaluationTraceSchema, evaluationTrace())).toEqual(evaluationTrace());
  });

  it('accepts the required fields alone, including empty prompt and response', () => {
    const minimal = {
      traceId: TRACE_ID,
      prompt: '',
      response: '',
      startTime: '2026-01-31T12:00:00.000Z',
      endTime: '2026-01-31T12:00:00.000Z',
      status: 'error',
    };
    expect(accepted(evaluationTraceSchema, minimal)).toEqual(minimal);
  });

  it('normalises every timestamp, spans and events included, to UTC', () => {
    const trace = evaluationTrace();
    const out = accepted(evaluationTraceSchema, {
      ...trace,
      startTime: '2026-01-31T13:00:00+01:00',
      endTime: '2026-01-31T07:00:02-05:00',
      spans: [
        {
          ...span(),
          startTime: '2026-01-31T12:00:00.5+00:00',
          events: [{ name: 'e', time: '2026-01-31T14:00:00+02:00' }],
        },
      ],
    });
    expect(out.startTime).toBe('2026-01-31T12:00:00.000Z');
    expect(out.endTime).toBe('2026-01-31T12:00:02.000Z');
    expect(out.spans?.[0]?.startTime).toBe('2026-01-31T12:00:00.500Z');
    expect(out.spans?.[0]?.events?.[0]?.time).toBe('2026-01-31T12:00:00.000Z');
  });

  it('says "is required" for each missing required field', () => {
    expect(rejected(evaluationTraceSchema, {})).toEqual(
      ['traceId', 'prompt', 'response', 'startTime', 'endTime', 'status'].map((path) => ({
        path,
        message: 'is required',
      })),
    );
  });

  it('rejects a status outside success, error', () => {
    expect(rejected(evaluationTraceSchema, { ...evaluationTrace(), status: 'ok' })).toEqual([
      { path: 'status', message: 'must be one of success, error' },
    ]);
  });

  it('rejects an endTime before startTime, on endTime', () => {
    expect(
      rejected(evaluationTraceSchema, { ...evaluationTrace(), endTime: '2026-01-31T11:59:59Z' }),
    ).toEqual([{ path: 'endTime', message: 'must be on or after startTime' }]);
  });

  it('rejects bad optional fields with their paths', () => {
    const trace = {
      ...evaluationTrace(),
      usage: { inputTokens: -1, outputTokens: 1.5, totalTokens: '3' },
      context: ['doc', 2],
      metadata: { tenant: 'acme', nested: { a: 1 } },
    };
    expect(rejected(evaluationTraceSchema, trace)).toEqual([
      { path: 'usage.inputTokens', message: 'must be a non-negative integer' },
      { path: 'usage.outputTokens', message: 'must be a non-negative integer' },
      { path: 'usage.totalTokens', message: 'must be a non-negative integer' },
      { path: 'context[1]', message: 'must be a string' },
      { path: 'metadata.nested', message: 'must be a string, number or boolean' },
    ]);
    expect(rejected(evaluationTraceSchema, { ...evaluationTrace(), metadata: 'tenant=acme' })).toEqual([
      { path: 'metadata', message: 'must be an object of strings, numbers and booleans' },
    ]);
  });

  it('drops unknown fields rather than rejecting them', () => {
    expect(accepted(evaluationTraceSchema, { ...evaluationTrace(), latency: 3 })).toEqual(evaluationTrace());
  });
});

describe('submitEvaluationsBodySchema', () => {
  it(`accepts 1 to ${MAX_TRACES_PER_SUBMISSION} traces`, () => {
    expect(accepted(submitEvaluationsBodySchema, { traces: [evaluationTrace()] })).toEqual({
      traces: [evaluationTrace()],
    });
    const full = Array.from({ length: MAX_TRACES_PER_SUBMISSION }, evaluationTrace);
    expect(accepted(submitEvaluationsBodySchema, { traces: full }).traces).toHaveLength(
      MAX_TRACES_PER_SUBMISSION,
    );
  });

  it('rejects an empty or oversized list', () => {
    const message = `must hold 1 to ${MAX_TRACES_PER_SUBMISSION} traces`;
    expect(rejected(submitEvaluationsBodySchema, { traces: [] })).toEqual([{ path: 'traces', message }]);
    const tooMany = Array.from({ length: MAX_TRACES_PER_SUBMISSION + 1 }, evaluationTrace);
    expect(rejected(submitEvaluationsBodySchema, { traces: tooMany })).toEqual([{ path: 'traces', message }]);
  });

  it('requires traces to be an array', () => {
    expect(rejected(submitEvaluationsBodySchema, {})).toEqual([{ path: 'traces', message: 'is required' }]);
    expect(rejected(submitEvaluationsBodySchema, { traces: evaluationTrace() })).toEqual([
      { path: 'traces', message: 'must be an array of traces' },
    ]);
  });

  it('reports errors deep inside traces with indexed paths', () => {
    const second = { ...evaluationTrace(), traceId: 'X', spans: [span(), { ...span(), spanId: 'short' }] };
    expect(rejected(submitEvaluationsBodySchema, { traces: [evaluationTrace(), second] })).toEqual([
      { path: 'traces[1].traceId', message: 'must be 32 lowercase hex characters' },
      { path: 'traces[1].spans[1].spanId', message: 'must be 16 lowercase hex characters' },
    ]);
  });

  it('rejects a body that is not an object at $', () => {
    expect(rejected(submitEvaluationsBodySchema, null).map((e) => e.path)).toEqual(['$']);
  });
});

describe('response shapes', () => {
  const summary = () => ({
    traceId: TRACE_ID,
    applicationId: APP_ID,
    startTime: '2026-01-31T12:00:00.000Z',
    endTime: '2026-01-31T12:00:02.000Z',
    spanCount: 1,
    status: 'success',
    prompt: 'p',
    response: 'r',
  });

  it('accept the submission result, a trace summary and a trace', () => {
    const result = { accepted: 2, traceIds: [TRACE_ID, 'b'.repeat(32)] };
    expect(accepted(submitEvaluationsResultSchema, result)).toEqual(result);
    expect(accepted(traceSummarySchema, summary())).toEqual(summary());
    const trace = {
      ...summary(),
      spans: [span()],
      evaluationResults: [evaluationResult()],
      model: 'gpt-4o',
      usage: { totalTokens: 21 },
      metadata: { tenant: 'acme' },
    };
    expect(accepted(traceSchema, trace)).toEqual(trace);
  });

  it('require spans on the single read; evaluationResults only "when evaluations exist" (spec)', () => {
    expect(rejected(traceSchema, summary()).map((e) => e.path)).toEqual(['spans']);
  });

  it('reject a trace status outside success, error', () => {
    expect(rejected(traceSummarySchema, { ...summary(), status: 'ok' }).map((e) => e.path)).toEqual([
      'status',
    ]);
  });
});

describe('listTracesQuerySchema', () => {
  it('defaults page and limit; start, end, status and search are optional', () => {
    expect(accepted(listTracesQuerySchema, {})).toEqual({ page: 1, limit: 20 });
    expect(
      accepted(listTracesQuerySchema, {
        page: '2',
        limit: '10',
        start: '2026-01-01T00:00:00+01:00',
        end: '2026-01-02T00:00:00Z',
        status: 'error',
        search: 'refund',
      }),
    ).toEqual({
      page: 2,
      limit: 10,
      start: '2025-12-31T23:00:00.000Z',
      end: '2026-01-02T00:00:00.000Z',
      status: 'error',
      search: 'refund',
    });
  });

  it('rejects a bad status, a bad date and a reversed range', () => {
    expect(rejected(listTracesQuerySchema, { status: 'ok', start: 'today' })).toEqual([
      { path: 'start', message: 'must be an ISO 8601 date-time, for example 2026-01-31T12:00:00Z' },
      { path: 'status', message: 'must be one of success, error' },
    ]);
    expect(
      rejected(listTracesQuerySchema, { start: '2026-01-02T00:00:00Z', end: '2026-01-01T00:00:00Z' }),
    ).toEqual([{ path: 'end', message: 'must be on or after start' }]);
  });
});
