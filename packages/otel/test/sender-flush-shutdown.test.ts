import { performance } from 'node:perf_hooks';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acceptReply, deferred, errorReply, FakeService, type Reply } from './export-helpers/fake-service.js';
import { makeRecord } from './export-helpers/records.js';
import { createTestSender } from './export-helpers/sender-setup.js';

let service: FakeService;
beforeEach(async () => {
  service = await FakeService.start();
});
afterEach(async () => {
  await service.close();
});

describe('TraceSender.flush', () => {
  it('resolves only once the queued traces were accepted', async () => {
    const gate = deferred();
    service.handler = async (request): Promise<Reply> => {
      await gate.promise;
      return acceptReply(request);
    };
    const { sender, client } = createTestSender(service);
    sender.enqueue(makeRecord());
    sender.enqueue(makeRecord());
    let flushed = false;
    const flush = sender.flush().then(() => {
      flushed = true;
    });
    await service.waitFor(() => service.requests.length === 1);
    expect(flushed).toBe(false);
    gate.resolve();
    await flush;
    expect(sender.stats()).toMatchObject({ exportedTraces: 2, queuedTraces: 0 });
    await client.close();
  });

  it('does not wait for traces queued after the call', async () => {
    const late = makeRecord();
    const gate = deferred();
    service.handler = async (request): Promise<Reply> => {
      if (request.traces.some((t) => t.traceId === late.traceId)) await gate.promise;
      return acceptReply(request);
    };
    const { sender, client } = createTestSender(service, { maxBatchTraces: 1 });
    const early = sender.enqueue(makeRecord());
    const flush = sender.flush();
    const lateTicket = sender.enqueue(late);
    await flush;
    expect(await early).toBe('delivered');
    expect(sender.stats().queuedTraces).toBe(1);
    gate.resolve();
    expect(await lateTicket).toBe('delivered');
    await client.close();
  });

  it('resolves when the traces were given up', async () => {
    service.handler = () => errorReply(409);
    const { sender, client } = createTestSender(service);
    const ticket = sender.enqueue(makeRecord());
    await sender.flush();
    expect(await ticket).toBe('dropped');
    await client.close();
  });
});

describe('TraceSender.shutdown', () => {
  it('is bounded by its timeout when the service hangs: aborts the request and gives the traces up', async () => {
    service.handler = () => 'hang';
    const { sender, client } = createTestSender(service, { requestTimeoutMs: 60_000 });
    const ticket = sender.enqueue(makeRecord());
    await service.waitFor(() => service.requests.length === 1);
    const started = performance.now();
    await sender.shutdown(200);
    const elapsed = performance.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(190);
    expect(elapsed).toBeLessThan(5000);
    expect(await ticket).toBe('dropped');
    expect(sender.stats()).toMatchObject({ queuedTraces: 0, droppedTraces: { byReason: { shutdown: 1 } } });
    await service.waitFor(() => service.aborted === 1);
    await client.close();
  });

  it('is bounded when the disk it gives the traces to hangs too (a stalled network mount)', async () => {
    service.handler = () => 'hang';
    let writes = 0;
    const hangingDisk = {
      writable: true,
      canBuffer: () => false, // new records go to memory, so shutdown is what gives them to the disk
      write: () => {
        writes += 1;
        return new Promise<boolean>(() => {});
      },
      poke: () => {},
    };
    const { sender, client } = createTestSender(service, { requestTimeoutMs: 60_000, overflow: hangingDisk });
    sender.enqueue(makeRecord());
    await service.waitFor(() => service.requests.length === 1);
    // Before, this waited for the disk forever (the test's own timeout failed it).
    await sender.shutdown(100);
    expect(writes).toBe(1);
    expect(sender.stats().queuedTraces).toBe(0);
    await client.close();
  }, 10_000);

  it('delivers what is queued when the service answers, then refuses new traces', async () => {
    const { sender, client } = createTestSender(service);
    const tickets = Array.from({ length: 3 }, () => sender.enqueue(makeRecord()));
    await sender.shutdown(5000);
    expect(await Promise.all(tickets)).toEqual(['delivered', 'delivered', 'delivered']);
    expect(await sender.enqueue(makeRecord())).toBe('dropped');
    expect(sender.stats().droppedTraces.byReason).toEqual({ shutdown: 1 });
    await client.close();
  });

  it('cuts a backoff wait short to retry before the deadline', async () => {
    const replies: Reply[] = [errorReply(503)];
    service.handler = (request) => replies.shift() ?? acceptReply(request);
    const { sender, time, client } = createTestSender(service, { autoRelease: false });
    const ticket = sender.enqueue(makeRecord());
    await time.waitForSleepers(1);
    await sender.shutdown(5000);
    expect(await ticket).toBe('delivered');
    expect(service.requests).toHaveLength(2);
    await client.close();
  });

  it('shares one shutdown between calls and never rejects', async () => {
    const { sender, client } = createTestSender(service);
    const first = sender.shutdown(1000);
    expect(sender.shutdown(1000)).toBe(first);
    await expect(first).resolves.toBeUndefined();
    await client.close();
  });
});
