import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TraceAssembler, type TraceGroup } from '../src/assembly/trace-assembler.js';
import { AqmSpanProcessor } from '../src/processor.js';
import { FakeService } from './export-helpers/fake-service.js';
import { fakeLlmSpan, randomTraceId } from './export-helpers/fake-span.js';
import { aqmOptions, testInternals } from './export-helpers/otel-setup.js';

const PARENT = 'f'.repeat(16); // a parent that never ends here: the trace stays open

describe('open traces are bounded in bytes', () => {
  it('cuts long values as spans arrive, counts what is held and completes the oldest past maxOpenBytes', () => {
    const completed: TraceGroup[] = [];
    const notices: string[] = [];
    const assembler = new TraceAssembler({
      traceIdleMs: 600_000,
      maxSpansPerTrace: 1000,
      maxOpenTraces: 1000,
      maxValueChars: 1000,
      maxOpenBytes: 20_000,
      onComplete: (group) => completed.push(group),
      onNotice: (kind, message) => notices.push(`${kind}: ${message}`),
    });
    const ids = Array.from({ length: 30 }, () => randomTraceId());
    for (const id of ids) {
      assembler.addSpans([fakeLlmSpan(id, { 'app.payload': 'x'.repeat(1_000_000) }, PARENT)]);
      expect(assembler.stats().openTraceBytes).toBeLessThanOrEqual(20_000);
    }
    const stats = assembler.stats();
    expect(stats.evictedForBytes).toBeGreaterThan(0);
    expect(stats.openTraces + completed.length).toBe(30);
    // Oldest first, each sent as it was.
    expect(completed.map((group) => group.traceId)).toEqual(ids.slice(0, completed.length));
    expect(completed.every((group) => group.reason === 'evicted')).toBe(true);
    const held = completed[0]?.spans[0]?.attributes['app.payload'] as string;
    expect(held.length).toBeLessThan(2000);
    expect(held.endsWith(`…[truncated ${1_000_000 - (1000 + 256)} chars]`)).toBe(true);
    expect(notices[0]).toMatch(
      /^open-bytes: Open traces \(whose root span has not ended\) held more than 20000 bytes/,
    );
    assembler.shutdown();
  });

  it('holds spans with nothing to cut as they are', () => {
    const completed: TraceGroup[] = [];
    const assembler = new TraceAssembler({
      traceIdleMs: 600_000,
      maxSpansPerTrace: 1000,
      maxOpenTraces: 1000,
      maxValueChars: 1000,
      maxOpenBytes: 1_000_000,
      onComplete: (group) => completed.push(group),
    });
    const span = fakeLlmSpan(randomTraceId());
    assembler.addSpans([span]);
    expect(completed[0]?.spans[0]).toBe(span);
    assembler.shutdown();
  });
});

describe('what a cut open trace still sends', () => {
  let service: FakeService;
  beforeEach(async () => {
    service = await FakeService.start();
  });
  afterEach(async () => {
    await service.close();
  });

  it('keeps a JSON prompt JSON, and the record says how much was cut in all', async () => {
    const { internals } = testInternals();
    const processor = new AqmSpanProcessor(
      aqmOptions(service, { maxValueChars: 1000, batchDelayMs: 0 }),
      internals,
    );
    const traceId = randomTraceId();
    const content = `${'a'.repeat(3000)}${'b'.repeat(97_000)}`;
    const messages = JSON.stringify([
      { role: 'system', parts: [{ type: 'text', content: 'Be brief.' }] },
      { role: 'user', parts: [{ type: 'text', content }] },
    ]);
    // The LLM span ends first and waits in its open trace; the root ends later.
    processor.onEnd(fakeLlmSpan(traceId, { 'gen_ai.input.messages': messages }, PARENT));
    expect(processor.stats().openTraceBytes).toBeLessThan(5000);
    processor.onEnd({
      ...fakeLlmSpan(traceId),
      name: 'POST /chat',
      attributes: {},
      spanContext: () => ({ traceId, spanId: PARENT, traceFlags: 1 }),
    });
    await processor.forceFlush();
    const [record] = service.acceptedTraces;
    expect(record?.prompt).toBe(`${'a'.repeat(1000)}…[truncated 99000 chars]`);
    await processor.shutdown();
  });

  it('keeps a conversation that is long only as a whole intact (no value to cut inside)', async () => {
    const { internals } = testInternals();
    const processor = new AqmSpanProcessor(
      aqmOptions(service, { maxValueChars: 1000, batchDelayMs: 0 }),
      internals,
    );
    const traceId = randomTraceId();
    const turns = Array.from({ length: 20 }, (_, i) => ({
      role: i % 2 === 0 ? 'user' : 'assistant',
      parts: [{ type: 'text', content: `turn ${i} ${'z'.repeat(300)}` }],
    }));
    const messages = JSON.stringify(turns);
    expect(messages.length).toBeGreaterThan(1000 + 256);
    processor.onEnd(fakeLlmSpan(traceId, { 'gen_ai.input.messages': messages }, PARENT));
    processor.onEnd({
      ...fakeLlmSpan(traceId),
      name: 'POST /chat',
      attributes: {},
      spanContext: () => ({ traceId, spanId: PARENT, traceFlags: 1 }),
    });
    await processor.forceFlush();
    const [record] = service.acceptedTraces;
    expect(record?.prompt).toBe(`turn 18 ${'z'.repeat(300)}`);
    await processor.shutdown();
  });
});
