import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acceptReply, errorReply, FakeService, type Reply } from './export-helpers/fake-service.js';
import { makeRecord } from './export-helpers/records.js';
import { createTestSender } from './export-helpers/sender-setup.js';

let service: FakeService;
beforeEach(async () => {
  service = await FakeService.start();
});
afterEach(async () => {
  await service.close();
});

/** Answers with `replies` in order, then accepts. */
function script(...replies: Reply[]) {
  service.handler = (request) => replies.shift() ?? acceptReply(request);
}

describe('TraceSender retries', () => {
  it('retries 503, 500 and 429 with exponential backoff, honouring Retry-After', async () => {
    script(
      errorReply(503),
      errorReply(500),
      errorReply(429, 'slow down', { 'retry-after': '7' }),
      errorReply(502),
    );
    const { sender, time, client } = createTestSender(service);
    const record = makeRecord();
    expect(await sender.enqueue(record)).toBe('delivered');
    // random() is 1, so each delay is its ceiling: 1 s, 2 s, then the asked 7 s, then 8 s.
    expect(time.slept).toEqual([1000, 2000, 7000, 8000]);
    expect(service.requests).toHaveLength(5);
    expect(service.accepted.get(record.traceId)).toBe(1);
    expect(sender.stats()).toMatchObject({ retries: 4, exportedTraces: 1, droppedTraces: { total: 0 } });
    await client.close();
  });

  it('caps the backoff at 30 s', async () => {
    script(...Array.from({ length: 7 }, () => errorReply(503)));
    const { sender, time, client } = createTestSender(service);
    expect(await sender.enqueue(makeRecord())).toBe('delivered');
    expect(time.slept).toEqual([1000, 2000, 4000, 8000, 16_000, 30_000, 30_000]);
    await client.close();
  });

  it('retries a broken connection and a request timeout', async () => {
    script('destroy', 'hang');
    // Long enough that the accepting request never times out on a loaded machine; the hang still does.
    const { sender, time, client } = createTestSender(service, { requestTimeoutMs: 1000 });
    const record = makeRecord();
    expect(await sender.enqueue(record)).toBe('delivered');
    expect(time.slept).toEqual([1000, 2000]);
    expect(service.accepted.get(record.traceId)).toBe(1);
    await client.close();
  });

  it('gives a batch up after maxRetryElapsedMs (reason retries-exhausted) and goes on with the next', async () => {
    const first = makeRecord();
    const second = makeRecord();
    service.handler = (request) =>
      request.traces.some((t) => t.traceId === first.traceId)
        ? errorReply(503, 'down')
        : acceptReply(request);
    const { sender, time, logger, client } = createTestSender(service, {
      maxRetryElapsedMs: 5000,
      concurrency: 1,
      maxBatchTraces: 1,
    });
    const tickets = [sender.enqueue(first), sender.enqueue(second)];
    expect(await Promise.all(tickets)).toEqual(['dropped', 'delivered']);
    // 1 s + 2 s = 3 s waited; the next 4 s would pass 5 s, so it stops after three attempts.
    expect(time.slept).toEqual([1000, 2000]);
    expect(service.requests.filter((r) => r.traces[0]?.traceId === first.traceId)).toHaveLength(3);
    expect(sender.stats().droppedTraces).toEqual({ total: 1, byReason: { 'retries-exhausted': 1 } });
    const warning = logger.at('warn').find((m) => m.includes('retries-exhausted'));
    expect(warning).toContain('503');
    await client.close();
  });

  it('gives up at once when Retry-After is longer than the retry budget left', async () => {
    script(errorReply(429, 'later', { 'retry-after': '600' }));
    const { sender, time, client } = createTestSender(service, { maxRetryElapsedMs: 60_000 });
    expect(await sender.enqueue(makeRecord())).toBe('dropped');
    expect(time.slept).toEqual([]);
    expect(sender.stats().droppedTraces.byReason).toEqual({ 'retries-exhausted': 1 });
    await client.close();
  });

  it('drops a batch the service refuses for good (409) without retrying', async () => {
    script(errorReply(409, 'conflict'));
    const { sender, time, client } = createTestSender(service);
    expect(await sender.enqueue(makeRecord())).toBe('dropped');
    expect(time.slept).toEqual([]);
    expect(sender.stats().droppedTraces.byReason).toEqual({ failed: 1 });
    await client.close();
  });
});
