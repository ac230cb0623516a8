import { ROOT_CONTEXT, SpanStatusCode, trace } from '@opentelemetry/api';
import { BasicTracerProvider } from '@opentelemetry/sdk-trace-base';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AssemblerNotice } from '../src/assembly/assembler-options.js';
import { UNFINISHED_CALL_WAIT_MS } from '../src/assembly/assembler-options.js';
import { TraceAssembler, type TraceGroup } from '../src/assembly/trace-assembler.js';
import type { ReadableSpan } from '../src/sdk-types.js';

// The assembler's side of unfinished model calls: a trace whose root ends while a call it was told
// of (`modelCallStarted`) is open waits for it (30 s, or traceIdleMs when longer), a flush or an
// eviction, then takes the span as it is. Real SDK spans; the idle timer on vitest's fake clock.
const provider = new BasicTracerProvider();
const CHAT = { 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'm' };

function setUp(overrides: { maxOpenModelCalls?: number } = {}) {
  const groups: TraceGroup[] = [];
  const notices: Array<[AssemblerNotice, string]> = [];
  const assembler = new TraceAssembler({
    traceIdleMs: 1000,
    maxSpansPerTrace: 100,
    maxOpenTraces: 100,
    onComplete: (group) => groups.push(group),
    onNotice: (kind, message) => notices.push([kind, message]),
    ...overrides,
  });
  /** An app root and a model call under it, the call told to the assembler as `onStart` does. */
  const request = () => {
    const app = provider.getTracer('app').startSpan('POST /ask', {}, ROOT_CONTEXT);
    const call = provider
      .getTracer('llm-instrumentation')
      .startSpan('chat m', { attributes: CHAT }, trace.setSpan(ROOT_CONTEXT, app));
    assembler.modelCallStarted(call as unknown as ReadableSpan);
    const end = (span: typeof app) => {
      span.end();
      assembler.addSpans([span as unknown as ReadableSpan]);
    };
    return { app, call, end, traceId: app.spanContext().traceId };
  };
  return { assembler, groups, notices, request };
}

describe('TraceAssembler: model calls still open at their root’s end', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('waits for the call: one group with both spans, reason root-ended', () => {
    const { groups, notices, request } = setUp();
    const { app, call, end, traceId } = request();
    end(app);
    expect(groups).toHaveLength(0);
    vi.advanceTimersByTime(999);
    end(call);
    expect(groups.map((group) => [group.traceId, group.reason, group.spans.length])).toEqual([
      [traceId, 'root-ended', 2],
    ]);
    expect(groups[0]?.spans[1]?.status.code).toBe(SpanStatusCode.UNSET);
    expect(notices).toEqual([]);
  });

  it('a long answer (a stream handed back by the request) that ends after traceIdleMs: still a success', () => {
    const { groups, notices, request } = setUp();
    const { app, call, end } = request();
    end(app);
    vi.advanceTimersByTime(UNFINISHED_CALL_WAIT_MS - 1);
    end(call);
    expect(groups.map((group) => [group.reason, group.spans.length])).toEqual([['root-ended', 2]]);
    expect(notices).toEqual([]);
  });

  it('never ends: completes after UNFINISHED_CALL_WAIT_MS with the span as it was, failed, and says so', () => {
    const { assembler, groups, notices, request } = setUp();
    const { app, end } = request();
    end(app);
    vi.advanceTimersByTime(UNFINISHED_CALL_WAIT_MS - 1);
    expect(groups).toHaveLength(0);
    vi.advanceTimersByTime(1);
    expect(groups.map((group) => group.reason)).toEqual(['idle']);
    const unfinished = groups[0]?.spans[1];
    expect(unfinished?.name).toBe('chat m');
    expect(unfinished?.attributes).toMatchObject(CHAT);
    expect(unfinished?.status).toEqual({
      code: SpanStatusCode.ERROR,
      message:
        "The model call's span had not ended when its trace was recorded, 30000 ms after the trace's root span " +
        'ended: the call probably failed and its instrumentation did not end the span.',
    });
    expect(unfinished?.endTime).not.toEqual([0, 0]);
    expect(notices.map(([kind]) => kind)).toEqual(['unfinished-calls']);
    expect(notices[0]?.[1]).toContain('(instrumentation llm-instrumentation)');
    expect(assembler.stats()).toMatchObject({ unfinishedCalls: 1, openModelCalls: 0 });
  });

  it('a call that ends after its trace went without waiting (root still open) is forgotten too', () => {
    const { assembler, groups, request } = setUp();
    const { app, call, end, traceId } = request();
    const query = provider.getTracer('app').startSpan('db query', {}, trace.setSpan(ROOT_CONTEXT, app));
    end(query);
    vi.advanceTimersByTime(1000); // idle with its root still open: nothing is waited for
    expect(groups.map((group) => [group.traceId, group.reason])).toEqual([[traceId, 'idle']]);
    expect(assembler.stats().openModelCalls).toBe(1);
    end(call); // late: not in any record, and no longer remembered
    expect(assembler.stats()).toMatchObject({ openModelCalls: 0, lateSpans: 1 });
  });

  it('keeps a status the instrumentation already set', () => {
    const { assembler, groups, request } = setUp();
    const { app, call, end } = request();
    call.setStatus({ code: SpanStatusCode.ERROR, message: '500 Internal Server Error' });
    end(app);
    assembler.flushAll();
    expect(groups[0]?.spans[1]?.status).toEqual({
      code: SpanStatusCode.ERROR,
      message: '500 Internal Server Error',
    });
  });

  it('a flush completes a waiting trace at once, with the open call', () => {
    const { assembler, groups, request } = setUp();
    const { app, end } = request();
    end(app);
    assembler.flushAll();
    expect(groups.map((group) => [group.reason, group.spans.length])).toEqual([['flush', 2]]);
  });

  it('a call that ends before its root is not added again', () => {
    const { groups, notices, request } = setUp();
    const { app, call, end } = request();
    end(call);
    end(app);
    expect(groups.map((group) => [group.reason, group.spans.length])).toEqual([['root-ended', 2]]);
    expect(notices).toEqual([]);
  });

  it('remembers at most maxOpenModelCalls open calls: the oldest is forgotten, said once', () => {
    const { groups, notices, request } = setUp({ maxOpenModelCalls: 2 });
    const first = request();
    const others = [request(), request(), request()];
    expect(notices.map(([kind]) => kind)).toEqual(['open-calls']);
    expect(notices[0]?.[1]).toContain('More than 2 model calls were in flight at once');
    // The first call is no longer watched: its root completes the trace at once.
    first.end(first.app);
    expect(groups.map((group) => [group.traceId, group.spans.length])).toEqual([[first.traceId, 1]]);
    // The newest two still hold their traces.
    const last = others[2];
    last?.end(last.app);
    expect(groups).toHaveLength(1);
  });
});
