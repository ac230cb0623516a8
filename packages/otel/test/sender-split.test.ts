import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acceptReply, errorReply, FakeService, type Reply } from './export-helpers/fake-service.js';
import { makeRecord, makeSpan } from './export-helpers/records.js';
import { createTestSender } from './export-helpers/sender-setup.js';

let service: FakeService;
beforeEach(async () => {
  service = await FakeService.start();
});
afterEach(async () => {
  await service.close();
});

function validationReply(errors: Array<{ path: string; message: string }>): Reply {
  return { status: 400, body: { success: false, message: 'Validation failed', errors } };
}

describe('TraceSender on 413', () => {
  it('halves a batch down to single traces until each fits', async () => {
    service.handler = (request) =>
      request.traces.length > 1 ? errorReply(413, 'too large') : acceptReply(request);
    const { sender, client } = createTestSender(service, { concurrency: 1 });
    const records = Array.from({ length: 4 }, () => makeRecord());
    expect(await Promise.all(records.map((r) => sender.enqueue(r)))).toEqual(Array(4).fill('delivered'));
    expect(service.batchSizes).toEqual([4, 2, 1, 1, 2, 1, 1]);
    expect([...service.accepted.values()]).toEqual([1, 1, 1, 1]);
    expect(sender.stats().droppedTraces.total).toBe(0);
    await client.close();
  });

  it('shrinks a single trace that is too large: spans first', async () => {
    const record = makeRecord({ spans: Array.from({ length: 40 }, (_, i) => makeSpan(i, 500)) });
    service.handler = (request) => (request.bytes > 5000 ? errorReply(413) : acceptReply(request));
    const { sender, client } = createTestSender(service);
    expect(await sender.enqueue(record)).toBe('delivered');
    const stored = service.acceptedTraces[0]!;
    expect(stored.spans).toBeUndefined();
    expect(stored.metadata).toEqual({ 'aqm.droppedSpans': 40 });
    expect(stored.prompt).toBe(record.prompt);
    expect(sender.stats().queuedBytes).toBe(0);
    await client.close();
  });

  it('then cuts long values harder, with a visible marker', async () => {
    const record = makeRecord({ prompt: 'q'.repeat(20_000), response: 'r'.repeat(20_000) });
    service.handler = (request) => (request.bytes > 3000 ? errorReply(413) : acceptReply(request));
    const { sender, client } = createTestSender(service, { maxValueChars: 32_768 });
    expect(await sender.enqueue(record)).toBe('delivered');
    const stored = service.acceptedTraces[0]!;
    expect(stored.prompt).toBe(`${'q'.repeat(256)}…[cut ${20_000 - 256} chars]`);
    expect(stored.response.startsWith('r'.repeat(256))).toBe(true);
    // 413 for the whole, for the 4096-char cut, accepted at the 256-char cut.
    expect(service.requests).toHaveLength(3);
    await client.close();
  });

  it('gives a trace up (reason too-large) when even the smallest form is refused', async () => {
    service.handler = () => errorReply(413);
    const { sender, logger, client } = createTestSender(service);
    const record = makeRecord({ prompt: 'q'.repeat(10_000), spans: [makeSpan(0)] });
    expect(await sender.enqueue(record)).toBe('dropped');
    // As sent, without spans, cut to 4096, cut to 256: then nothing is left to try.
    expect(service.requests).toHaveLength(4);
    expect(sender.stats().droppedTraces).toEqual({ total: 1, byReason: { 'too-large': 1 } });
    expect(logger.at('warn').some((m) => m.includes('too-large') && m.includes(record.traceId))).toBe(true);
    await client.close();
  });
});

describe('TraceSender on 400', () => {
  it('drops only the traces the errors[] paths name and resends the rest', async () => {
    service.handler = (request) => {
      const errors = request.traces.flatMap((trace, index) =>
        trace.prompt.includes('BAD')
          ? [{ path: `traces[${index}].prompt`, message: 'is not allowed here' }]
          : [],
      );
      return errors.length > 0 ? validationReply(errors) : acceptReply(request);
    };
    const { sender, logger, client } = createTestSender(service, { concurrency: 1 });
    const records = [
      makeRecord(),
      makeRecord({ prompt: 'BAD 1' }),
      makeRecord(),
      makeRecord({ prompt: 'BAD 2' }),
      makeRecord(),
    ];
    const outcomes = await Promise.all(records.map((r) => sender.enqueue(r)));
    expect(outcomes).toEqual(['delivered', 'dropped', 'delivered', 'dropped', 'delivered']);
    expect(service.batchSizes).toEqual([5, 3]);
    expect([...service.accepted.keys()]).toEqual([records[0], records[2], records[4]].map((r) => r!.traceId));
    expect(sender.stats().droppedTraces).toEqual({ total: 2, byReason: { rejected: 2 } });
    const report = logger.at('warn').find((m) => m.includes('rejected'));
    expect(report).toContain('traces[1].prompt: is not allowed here');
    expect(report).toContain('traces[3].prompt: is not allowed here');
    expect(report).toContain(records[1]!.traceId);
    await client.close();
  });

  it('halves to find the bad trace when errors[] names no position', async () => {
    service.handler = (request) =>
      request.traces.some((t) => t.prompt === 'BAD')
        ? validationReply([{ path: '$', message: 'bad body' }])
        : acceptReply(request);
    const { sender, client } = createTestSender(service, { concurrency: 1 });
    const records = Array.from({ length: 8 }, (_, i) => makeRecord({ prompt: i === 5 ? 'BAD' : `ok ${i}` }));
    const outcomes = await Promise.all(records.map((r) => sender.enqueue(r)));
    expect(outcomes.filter((o) => o === 'dropped')).toHaveLength(1);
    expect(outcomes[5]).toBe('dropped');
    expect(service.accepted.size).toBe(7);
    expect([...service.accepted.values()].every((count) => count === 1)).toBe(true);
    // 8 → [0-3] ok, [4-7] → [4,5] → [4] ok, [5] bad; then [6,7] ok.
    expect(service.batchSizes).toEqual([8, 4, 4, 2, 1, 1, 2]);
    await client.close();
  });

  it('leaves checking the records to the service: a bad one is sent as it is and dropped alone on 400', async () => {
    // The sender hands the client JSON text, which it does not parse again: the service judges.
    service.handler = (request) => {
      const bad = request.traces.findIndex((trace) => !/^[0-9a-f]{32}$/.test(String(trace.traceId)));
      return bad === -1
        ? acceptReply(request)
        : validationReply([
            { path: `traces[${bad}].traceId`, message: 'must be 32 lowercase hex characters' },
          ]);
    };
    const { sender, client } = createTestSender(service);
    const good = makeRecord();
    const bad = makeRecord({ traceId: 'not-a-trace-id' });
    const outcomes = await Promise.all([sender.enqueue(good), sender.enqueue(bad)]);
    expect(outcomes).toEqual(['delivered', 'dropped']);
    expect(service.batchSizes).toEqual([2, 1]);
    expect(service.requests[0]?.traces[1]?.traceId).toBe('not-a-trace-id');
    expect(sender.stats().droppedTraces.byReason).toEqual({ rejected: 1 });
    await client.close();
  });
});
