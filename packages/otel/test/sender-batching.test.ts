import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acceptReply, deferred, FakeService, type Reply } from './export-helpers/fake-service.js';
import { makeRecord, recordBytes } from './export-helpers/records.js';
import { API_KEY, APPLICATION_ID, createTestSender } from './export-helpers/sender-setup.js';

let service: FakeService;
beforeEach(async () => {
  service = await FakeService.start();
});
afterEach(async () => {
  await service.close();
});

describe('TraceSender batching', () => {
  it('sends batches of at most maxBatchTraces, in order, to the evaluations route with the key', async () => {
    const { sender, client } = createTestSender(service, { maxBatchTraces: 3, concurrency: 1 });
    const records = Array.from({ length: 7 }, () => makeRecord());
    const tickets = records.map((record) => sender.enqueue(record));
    expect(await Promise.all(tickets)).toEqual(Array(7).fill('delivered'));
    expect(service.batchSizes).toEqual([3, 3, 1]);
    expect(service.acceptedTraces.map((t) => t.traceId)).toEqual(records.map((r) => r.traceId));
    expect(service.requests[0]?.path).toBe(`/api/applications/${APPLICATION_ID}/evaluations`);
    expect(service.requests[0]?.apiKey).toBe(API_KEY);
    expect(sender.stats()).toMatchObject({ exportedTraces: 7, queuedTraces: 0, queuedBytes: 0, inFlight: 0 });
    await client.close();
  });

  it('limits each request body to maxBatchBytes, and sends a trace larger than that alone', async () => {
    const records = Array.from({ length: 7 }, () => makeRecord());
    const size = recordBytes(records[0]!);
    // Room for two records: `{"traces":[` + two records + a comma + `]}`.
    const maxBatchBytes = 12 + 2 * (size + 1) + 5;
    const big = makeRecord({ prompt: 'p'.repeat(maxBatchBytes) });
    const { sender, client } = createTestSender(service, { maxBatchBytes, concurrency: 1 });
    const tickets = [...records.slice(0, 3), big, ...records.slice(3)].map((record) =>
      sender.enqueue(record),
    );
    await Promise.all(tickets);
    expect(service.batchSizes).toEqual([2, 1, 1, 2, 2]);
    expect(service.requests[2]?.traces[0]?.traceId).toBe(big.traceId);
    for (const request of service.requests) {
      if (request.traces.length > 1) expect(request.bytes).toBeLessThanOrEqual(maxBatchBytes);
    }
    await client.close();
  });

  it('never has more than `concurrency` requests in flight, and uses them all', async () => {
    const held: Array<{ request: Parameters<typeof acceptReply>[0]; release: (reply: Reply) => void }> = [];
    let received = 0;
    const total = 9;
    service.handler = (request) => {
      const gate = deferred<Reply>();
      held.push({ request, release: gate.resolve });
      received += 1;
      // Answer in pairs (and the last one alone), so a third request could only come from a broken cap.
      if (held.length === 2 || received === total) {
        for (const item of held.splice(0)) item.release(acceptReply(item.request));
      }
      return gate.promise;
    };
    const { sender, client } = createTestSender(service, { maxBatchTraces: 1, concurrency: 2 });
    const tickets = Array.from({ length: total }, () => sender.enqueue(makeRecord()));
    await Promise.all(tickets);
    expect(service.requests).toHaveLength(total);
    expect(service.maxInFlight).toBe(2);
    await client.close();
  });

  it('fills batches from traces ended in one synchronous loop instead of sending them one by one', async () => {
    const { sender, client } = createTestSender(service, { maxBatchTraces: 50, concurrency: 2 });
    const tickets = Array.from({ length: 120 }, () => sender.enqueue(makeRecord()));
    await Promise.all(tickets);
    expect(service.batchSizes).toEqual([50, 50, 20]);
    await client.close();
  });
});
