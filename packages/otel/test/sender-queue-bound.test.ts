import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acceptReply, deferred, FakeService, type Reply } from './export-helpers/fake-service.js';
import { makeRecord, recordBytes } from './export-helpers/records.js';
import { createTestSender } from './export-helpers/sender-setup.js';

let service: FakeService;
const gate = { current: deferred() };
beforeEach(async () => {
  service = await FakeService.start();
  gate.current = deferred();
  // Every answer waits for the test to open the gate.
  service.handler = async (request): Promise<Reply> => {
    await gate.current.promise;
    return acceptReply(request);
  };
});
afterEach(async () => {
  gate.current.resolve();
  await service.close();
});

describe('TraceSender queue bounds', () => {
  it('counts in-flight traces against maxQueueTraces and drops the newest when full', async () => {
    const { sender, logger, client } = createTestSender(service, {
      maxQueueTraces: 3,
      maxBatchTraces: 1,
      concurrency: 1,
    });
    const records = Array.from({ length: 5 }, () => makeRecord());
    const tickets = records.map((record) => sender.enqueue(record));
    await service.waitFor(() => service.requests.length === 1);
    // One in flight + two waiting = 3 held: the 4th and 5th were dropped, not the oldest.
    expect(sender.stats()).toMatchObject({
      queuedTraces: 3,
      inFlight: 1,
      droppedTraces: { total: 2, byReason: { 'queue-full': 2 } },
    });
    expect(await tickets[3]).toBe('dropped');
    expect(await tickets[4]).toBe('dropped');
    gate.current.resolve();
    expect(await Promise.all(tickets.slice(0, 3))).toEqual(['delivered', 'delivered', 'delivered']);
    expect([...service.accepted.keys()]).toEqual(records.slice(0, 3).map((r) => r.traceId));
    expect(logger.at('warn').filter((m) => m.includes('queue-full'))).toHaveLength(1);
    await client.close();
  });

  it('drops by maxQueueBytes', async () => {
    const record = makeRecord();
    const size = recordBytes(record);
    const { sender, client } = createTestSender(service, { maxQueueBytes: size * 2 + 1 });
    const tickets = [record, makeRecord(), makeRecord()].map((r) => sender.enqueue(r));
    expect(await tickets[2]).toBe('dropped');
    expect(sender.stats()).toMatchObject({ queuedTraces: 2, queuedBytes: size * 2 });
    gate.current.resolve();
    expect(await Promise.all(tickets.slice(0, 2))).toEqual(['delivered', 'delivered']);
    expect(sender.stats().queuedBytes).toBe(0);
    await client.close();
  });

  it('with keepOverBound (aqm-forwarder admits before it answers), keeps a record over the bounds', async () => {
    const record = makeRecord();
    const size = recordBytes(record);
    const { sender, client } = createTestSender(service, {
      maxQueueTraces: 1,
      maxQueueBytes: size + 1,
      keepOverBound: true,
    });
    const tickets = [record, makeRecord(), makeRecord()].map((r) => sender.enqueue(r));
    expect(sender.refuseIfFull(size)).toBeUndefined();
    expect(sender.stats()).toMatchObject({ queuedTraces: 3, droppedTraces: { total: 0 } });
    gate.current.resolve();
    expect(await Promise.all(tickets)).toEqual(['delivered', 'delivered', 'delivered']);
    await client.close();
  });

  it('reports queue-full at most once per minute, with the count held back', async () => {
    const { sender, logger, time, client } = createTestSender(service, { maxQueueTraces: 1 });
    sender.enqueue(makeRecord());
    for (let i = 0; i < 50; i += 1) sender.enqueue(makeRecord());
    expect(logger.at('warn').filter((m) => m.includes('queue-full'))).toHaveLength(1);
    time.nowMs += 59_999;
    sender.enqueue(makeRecord());
    expect(logger.at('warn').filter((m) => m.includes('queue-full'))).toHaveLength(1);
    time.nowMs += 1;
    sender.enqueue(makeRecord());
    const reports = logger.at('warn').filter((m) => m.includes('queue-full'));
    expect(reports).toHaveLength(2);
    expect(reports[1]).toContain('50 similar messages held back');
    expect(sender.stats().droppedTraces.byReason['queue-full']).toBe(52);
    gate.current.resolve();
    await sender.flush();
    await client.close();
  });

  it('refuseIfFull() drops a trace before its record exists when even its size floor does not fit', async () => {
    const record = makeRecord();
    const size = recordBytes(record);
    const { sender, client } = createTestSender(service, { maxQueueBytes: size * 2, maxQueueTraces: 3 });
    const first = sender.enqueue(record);
    // Room for one more of `size` bytes, not for more.
    expect(sender.refuseIfFull(size)).toBeUndefined();
    expect(await sender.refuseIfFull(size + 1)).toBe('dropped');
    const second = sender.enqueue(makeRecord());
    expect(sender.refuseIfFull(1)).toBeDefined();
    expect(sender.stats()).toMatchObject({
      queuedTraces: 2,
      droppedTraces: { total: 2, byReason: { 'queue-full': 2 } },
    });
    gate.current.resolve();
    expect(await Promise.all([first, second])).toEqual(['delivered', 'delivered']);
    // Room again once delivered.
    expect(sender.refuseIfFull(size)).toBeUndefined();
    await sender.shutdown(1000);
    expect(await sender.refuseIfFull(1)).toBe('dropped');
    expect(sender.stats().droppedTraces.byReason.shutdown).toBe(1);
    await client.close();
  });
});
