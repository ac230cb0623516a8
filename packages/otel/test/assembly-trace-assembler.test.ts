import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RecentIds } from '../src/assembly/recent-ids.js';
import { LOG_ONLY_WAIT_MS, TraceAssembler, type TraceGroup } from '../src/assembly/trace-assembler.js';
import type { LlmLogRecord } from '../src/mapping/llm-log-record.js';
import { buildTrace } from './mapping-helpers/spans.js';

/** A two-span trace (root → child) from the SDK: `[child, root]` in end order. */
function twoSpanTrace(): { child: ReadableSpan; root: ReadableSpan; traceId: string } {
  const built = buildTrace({ name: 'root', children: [{ name: 'child' }] });
  return { child: built.byName('child'), root: built.byName('root'), traceId: built.traceId };
}

function log(traceId: string, spanId: string): LlmLogRecord {
  return { traceId, spanId, eventName: 'gen_ai.user.message', body: { content: 'hi' }, attributes: {} };
}

function createAssembler(overrides: Partial<ConstructorParameters<typeof TraceAssembler>[0]> = {}) {
  const groups: TraceGroup[] = [];
  const assembler = new TraceAssembler({
    traceIdleMs: 5000,
    maxSpansPerTrace: 100,
    maxOpenTraces: 100,
    onComplete: (group) => groups.push(group),
    ...overrides,
  });
  return { assembler, groups };
}

describe('TraceAssembler', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('completes a trace when its local root span ends, across export calls', () => {
    const { assembler, groups } = createAssembler();
    const { child, root, traceId } = twoSpanTrace();
    assembler.addSpans([child]);
    expect(groups).toHaveLength(0);
    expect(assembler.openTraces).toBe(1);
    assembler.addSpans([root]);
    expect(groups).toEqual([{ traceId, spans: [child, root], logs: [], reason: 'root-ended' }]);
    expect(assembler.openTraces).toBe(0);
  });

  it('keeps a child listed after its root in the same batch', () => {
    const { assembler, groups } = createAssembler();
    const { child, root } = twoSpanTrace();
    assembler.addSpans([root, child]);
    expect(groups).toHaveLength(1);
    expect(groups[0]?.spans).toEqual([root, child]);
  });

  it('treats a span under a remote parent as the local root', () => {
    const { assembler, groups } = createAssembler();
    const built = buildTrace({ name: 'server' }, { remoteParent: true });
    assembler.addSpans(built.spans);
    expect(groups.map((group) => group.reason)).toEqual(['root-ended']);
  });

  it('completes a trace when no span of it arrived for traceIdleMs, with an unref’d timer that stops', () => {
    const { assembler, groups } = createAssembler({ traceIdleMs: 1000 });
    const { child } = twoSpanTrace();
    assembler.addSpans([child]);
    expect(assembler.timerArmed).toBe(true);
    vi.advanceTimersByTime(999);
    expect(groups).toHaveLength(0);
    vi.advanceTimersByTime(1);
    expect(groups.map((group) => group.reason)).toEqual(['idle']);
    expect(assembler.timerArmed).toBe(false);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('leaves the idle timer armed when the last open trace completes; it then fires once and stops', () => {
    const { assembler, groups } = createAssembler({ traceIdleMs: 1000 });
    const { child, root } = twoSpanTrace();
    assembler.addSpans([child]);
    assembler.addSpans([root]);
    expect(groups.map((group) => group.reason)).toEqual(['root-ended']);
    expect(assembler.timerArmed).toBe(true);
    vi.advanceTimersByTime(1000);
    expect(groups).toHaveLength(1);
    expect(assembler.timerArmed).toBe(false);
    expect(vi.getTimerCount()).toBe(0);
    // A new trace arms it again.
    assembler.addSpans([twoSpanTrace().child]);
    expect(assembler.timerArmed).toBe(true);
  });

  it('measures idleness from the last span of the trace', () => {
    const { assembler, groups } = createAssembler({ traceIdleMs: 1000 });
    const built = buildTrace({ name: 'root', children: [{ name: 'a' }, { name: 'b' }] });
    assembler.addSpans([built.byName('a')]);
    vi.advanceTimersByTime(800);
    assembler.addSpans([built.byName('b')]);
    vi.advanceTimersByTime(800);
    expect(groups).toHaveLength(0);
    vi.advanceTimersByTime(200);
    expect(groups).toHaveLength(1);
    expect(groups[0]?.spans).toHaveLength(2);
  });

  it('unrefs its timer so the app can exit', () => {
    const unref = vi.fn();
    const realSetTimeout = globalThis.setTimeout;
    const spy = vi.spyOn(globalThis, 'setTimeout').mockImplementation(((
      ...args: Parameters<typeof setTimeout>
    ) => {
      const timer = realSetTimeout(...args);
      const original = timer.unref.bind(timer);
      timer.unref = () => {
        unref();
        return original();
      };
      return timer;
    }) as typeof setTimeout);
    try {
      const { assembler } = createAssembler();
      assembler.addSpans([twoSpanTrace().child]);
      expect(unref).toHaveBeenCalledTimes(1);
      assembler.shutdown();
    } finally {
      spy.mockRestore();
    }
  });

  it('completes a trace at maxSpansPerTrace and counts its later spans as late', () => {
    const { assembler, groups } = createAssembler({ maxSpansPerTrace: 2 });
    const built = buildTrace({ name: 'root', children: [{ name: 'a' }, { name: 'b' }, { name: 'c' }] });
    assembler.addSpans([built.byName('a'), built.byName('b'), built.byName('c')]);
    expect(groups.map((group) => [group.reason, group.spans.length])).toEqual([['max-spans', 2]]);
    assembler.addSpans([built.byName('root')]);
    expect(groups).toHaveLength(1);
    expect(assembler.stats()).toMatchObject({ lateSpans: 2, openTraces: 0 });
  });

  it('completes the oldest open trace when maxOpenTraces is reached', () => {
    const { assembler, groups } = createAssembler({ maxOpenTraces: 2 });
    const traces = [twoSpanTrace(), twoSpanTrace(), twoSpanTrace()];
    for (const { child } of traces) assembler.addSpans([child]);
    expect(groups).toEqual([
      { traceId: traces[0]!.traceId, spans: [traces[0]!.child], logs: [], reason: 'evicted' },
    ]);
    expect(assembler.stats()).toMatchObject({ openTraces: 2, evictedTraces: 1 });
    assembler.addSpans([traces[0]!.root]);
    expect(assembler.stats().lateSpans).toBe(1);
  });

  it('joins logs that arrive before their span, and counts logs after completion as late', () => {
    const { assembler, groups } = createAssembler();
    const { child, root, traceId } = twoSpanTrace();
    const early = log(traceId, child.spanContext().spanId);
    assembler.addLog(early);
    expect(assembler.openTraces).toBe(1);
    assembler.addSpans([child, root]);
    expect(groups[0]?.logs).toEqual([early]);
    assembler.addLog(log(traceId, child.spanContext().spanId));
    expect(assembler.stats().lateLogs).toBe(1);
  });

  it('bounds logs per trace', () => {
    const { assembler, groups } = createAssembler({ maxLogsPerTrace: 3 });
    const { child, root, traceId } = twoSpanTrace();
    for (let i = 0; i < 5; i += 1) assembler.addLog(log(traceId, child.spanContext().spanId));
    assembler.addSpans([child, root]);
    expect(groups[0]?.logs).toHaveLength(3);
    expect(assembler.stats().droppedLogs).toBe(2);
  });

  it('lets a trace known only from logs wait longer for its spans, then forgets it without completing it', () => {
    const { assembler, groups } = createAssembler({ traceIdleMs: 1000 });
    const { child, root, traceId } = twoSpanTrace();
    assembler.addLog(log(traceId, child.spanContext().spanId));
    vi.advanceTimersByTime(5000);
    expect(assembler.openTraces).toBe(1);
    vi.advanceTimersByTime(LOG_ONLY_WAIT_MS);
    expect(assembler.openTraces).toBe(0);
    expect(groups).toHaveLength(0);
    expect(assembler.stats().droppedLogs).toBe(1);
    // The trace id is not remembered as completed, so its spans still make a trace.
    assembler.addSpans([child, root]);
    expect(groups.map((group) => group.reason)).toEqual(['root-ended']);
  });

  it('re-arms the timer earlier when a span trace opens after a log-only trace', () => {
    const { assembler, groups } = createAssembler({ traceIdleMs: 1000 });
    const first = twoSpanTrace();
    assembler.addLog(log(first.traceId, first.child.spanContext().spanId));
    assembler.addSpans([twoSpanTrace().child]);
    vi.advanceTimersByTime(1000);
    expect(groups.map((group) => group.reason)).toEqual(['idle']);
  });

  it('flushAll completes every trace with spans (reason flush)', () => {
    const { assembler, groups } = createAssembler();
    const a = twoSpanTrace();
    const b = twoSpanTrace();
    assembler.addSpans([a.child, b.child]);
    assembler.flushAll();
    expect(groups.map((group) => [group.traceId, group.reason])).toEqual([
      [a.traceId, 'flush'],
      [b.traceId, 'flush'],
    ]);
    expect(assembler.openTraces).toBe(0);
    // Left armed with nothing open, the idle timer fires once and stops.
    vi.advanceTimersByTime(5000);
    expect(groups).toHaveLength(2);
    expect(assembler.timerArmed).toBe(false);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('survives an onComplete that throws', () => {
    let calls = 0;
    const assembler = new TraceAssembler({
      traceIdleMs: 1000,
      maxSpansPerTrace: 10,
      maxOpenTraces: 10,
      onComplete: () => {
        calls += 1;
        throw new Error('consumer bug');
      },
    });
    const a = twoSpanTrace();
    expect(() => assembler.addSpans([a.child, a.root])).not.toThrow();
    assembler.addSpans([twoSpanTrace().child]);
    expect(() => vi.advanceTimersByTime(1000)).not.toThrow();
    expect(calls).toBe(2);
    expect(assembler.stats().callbackErrors).toBe(2);
  });

  it('shutdown stops the timer for good', () => {
    const { assembler, groups } = createAssembler({ traceIdleMs: 1000 });
    const before = twoSpanTrace();
    const after = twoSpanTrace();
    vi.runAllTimers(); // the SDK's own timers, so that only the assembler's are counted below
    assembler.addSpans([before.child]);
    expect(vi.getTimerCount()).toBe(1);
    assembler.shutdown();
    expect(vi.getTimerCount()).toBe(0);
    assembler.addSpans([after.child]);
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(10_000);
    expect(groups).toHaveLength(0);
  });

  it('uses the injected clock for deadlines', () => {
    let now = 1_000_000;
    const { assembler, groups } = createAssembler({ traceIdleMs: 1000, now: () => now });
    assembler.addSpans([twoSpanTrace().child]);
    now += 500;
    vi.advanceTimersByTime(1000);
    // The timer fired, but by the injected clock only 500 ms passed: still open, re-armed.
    expect(groups).toHaveLength(0);
    now += 500;
    vi.advanceTimersByTime(1000);
    expect(groups).toHaveLength(1);
  });

  it.each([
    ['traceIdleMs', { traceIdleMs: 0 }, 'Expected `traceIdleMs` to be an integer >= 1, got 0 (number)'],
    [
      'maxSpansPerTrace',
      { maxSpansPerTrace: 1.5 },
      'Expected `maxSpansPerTrace` to be an integer >= 1, got 1.5 (number)',
    ],
    [
      'maxOpenTraces',
      { maxOpenTraces: '10' },
      'Expected `maxOpenTraces` to be an integer >= 1, got "10" (string)',
    ],
    ['onComplete', { onComplete: 'x' }, 'Expected `onComplete` to be a function, got "x" (string)'],
  ])('rejects a bad %s with a message naming it', (_name, override, message) => {
    expect(() => createAssembler(override as never)).toThrow(message);
  });
});

describe('RecentIds', () => {
  it('remembers only the last `capacity` ids', () => {
    const recent = new RecentIds(3);
    for (const id of ['a', 'b', 'c', 'd']) recent.add(id);
    expect(recent.has('a')).toBe(false);
    expect(['b', 'c', 'd'].every((id) => recent.has(id))).toBe(true);
    expect(recent.size).toBe(3);
    recent.add('d');
    expect(recent.size).toBe(3);
  });

  it('stays bounded in the assembler: a trace completed long ago is no longer late', () => {
    const { assembler } = createAssembler({ recentTraceIds: 2 });
    const traces = [twoSpanTrace(), twoSpanTrace(), twoSpanTrace()];
    for (const { child, root } of traces) assembler.addSpans([root, child]);
    assembler.addSpans([traces[2]!.child]);
    expect(assembler.stats().lateSpans).toBe(1);
    // The first trace's id was forgotten: its span opens a new entry instead of being counted late.
    assembler.addSpans([traces[0]!.child]);
    expect(assembler.stats()).toMatchObject({ lateSpans: 1, openTraces: 1 });
  });
});
