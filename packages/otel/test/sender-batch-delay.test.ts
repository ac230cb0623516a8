import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeService } from './export-helpers/fake-service.js';
import { makeRecord } from './export-helpers/records.js';
import { createTestSender } from './export-helpers/sender-setup.js';

let service: FakeService;
beforeEach(async () => {
  service = await FakeService.start();
});
afterEach(async () => {
  await service.close();
});

/** Lets the sender's pump run (it is scheduled as a microtask) and any I/O that is ready. */
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('TraceSender batchDelayMs', () => {
  it('holds a partial batch, so traces queued later join it', async () => {
    const { sender, client } = createTestSender(service, { batchDelayMs: 60_000, maxBatchTraces: 10 });
    const first = sender.enqueue(makeRecord());
    await nextTurn();
    const second = sender.enqueue(makeRecord());
    await nextTurn();
    expect(service.requests).toHaveLength(0);
    sender.sendNow();
    expect(await Promise.all([first, second])).toEqual(['delivered', 'delivered']);
    // With batchDelayMs 0 the first trace would have left alone when the pump first ran.
    expect(service.batchSizes).toEqual([2]);
    await client.close();
  });

  it('sends a partial batch once the delay is over, without a flush', async () => {
    const { sender, client } = createTestSender(service, { batchDelayMs: 20, maxBatchTraces: 10 });
    const tickets = [sender.enqueue(makeRecord()), sender.enqueue(makeRecord())];
    expect(await Promise.all(tickets)).toEqual(['delivered', 'delivered']);
    expect(service.batchSizes).toEqual([2]);
    await client.close();
  });

  it('sends a full batch at once and keeps only the rest waiting', async () => {
    const { sender, client } = createTestSender(service, { batchDelayMs: 60_000, maxBatchTraces: 3 });
    const tickets = Array.from({ length: 7 }, () => sender.enqueue(makeRecord()));
    await Promise.all(tickets.slice(0, 6));
    expect(service.batchSizes).toEqual([3, 3]);
    expect(sender.stats()).toMatchObject({ queuedTraces: 1, inFlight: 0 });
    await sender.flush();
    expect(await tickets[6]).toBe('delivered');
    expect(service.batchSizes).toEqual([3, 3, 1]);
    await client.close();
  });

  it('counts a batch full by bytes too', async () => {
    const big = () => makeRecord({ prompt: 'p'.repeat(4000) });
    const { sender, client } = createTestSender(service, {
      batchDelayMs: 60_000,
      maxBatchTraces: 100,
      maxBatchBytes: 10_000,
    });
    const tickets = [big(), big(), big()].map((record) => sender.enqueue(record));
    await tickets[0];
    expect(service.batchSizes[0]).toBe(2);
    await sender.flush();
    await client.close();
  });

  it('sends at once what a flush, sendNow() or shutdown waits for', async () => {
    const { sender, client } = createTestSender(service, { batchDelayMs: 60_000, maxBatchTraces: 100 });
    const flushed = sender.enqueue(makeRecord());
    await sender.flush();
    expect(await flushed).toBe('delivered');

    const hurried = sender.enqueue(makeRecord());
    sender.sendNow();
    expect(await hurried).toBe('delivered');

    const atShutdown = sender.enqueue(makeRecord());
    await sender.shutdown(5000);
    expect(await atShutdown).toBe('delivered');
    expect(service.batchSizes).toEqual([1, 1, 1]);
    await client.close();
  });

  it('sends whatever is waiting as soon as a slot is free with batchDelayMs 0', async () => {
    const { sender, client } = createTestSender(service, { batchDelayMs: 0, maxBatchTraces: 100 });
    expect(await sender.enqueue(makeRecord())).toBe('delivered');
    expect(service.batchSizes).toEqual([1]);
    await client.close();
  });
});
