import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { acceptReply, FakeService, type Reply } from './export-helpers/fake-service.js';
import { makeRecord } from './export-helpers/records.js';
import { API_KEY, APPLICATION_ID, createTestSender } from './export-helpers/sender-setup.js';

let service: FakeService;
beforeEach(async () => {
  service = await FakeService.start();
});
afterEach(async () => {
  await service.close();
});

const cases: Array<{ status: 401 | 404; body: unknown; fix: string; alsoNamed?: string }> = [
  { status: 401, body: { message: 'Invalid API key' }, fix: 'AQM_API_KEY' },
  {
    status: 404,
    body: { success: false, message: 'Application not found' },
    fix: 'AQM_APPLICATION_ID',
    alsoNamed: APPLICATION_ID,
  },
];

describe.each(cases)('TraceSender on $status', ({ status, body, fix, alsoNamed }) => {
  it('pauses with one clear error, probes with one batch, keeps queueing, and resumes once a request passes', async () => {
    let fixed = false;
    service.handler = (request): Reply => (fixed ? acceptReply(request) : { status, body });
    const { sender, time, logger, client } = createTestSender(service, {
      autoRelease: false,
      concurrency: 2,
      maxBatchTraces: 1,
      maxRetryElapsedMs: 1500, // not applied while paused: the traces wait for the fix
    });
    const records = Array.from({ length: 3 }, () => makeRecord());
    const tickets = records.map((r) => sender.enqueue(r));

    // Both first batches fail; one becomes the probe (sleeping), the other goes back to the queue.
    await vi.waitFor(() => {
      expect(time.waiting).toBe(1);
      expect(sender.stats().inFlight).toBe(1);
    });
    expect(service.requests).toHaveLength(2);
    expect(logger.at('error')).toHaveLength(1);
    expect(logger.at('error')[0]).toContain(fix);
    if (alsoNamed !== undefined) expect(logger.at('error')[0]).toContain(alsoNamed);

    // Traces keep queueing while paused.
    tickets.push(sender.enqueue(makeRecord()), sender.enqueue(makeRecord()));
    expect(sender.stats().queuedTraces).toBe(5);

    // Each probe is a single request on the backoff schedule; no new error.
    for (let probe = 1; probe <= 2; probe += 1) {
      time.releaseAll();
      await vi.waitFor(() => {
        expect(service.requests).toHaveLength(2 + probe);
        expect(time.waiting).toBe(1);
      });
    }
    expect(time.slept).toEqual([1000, 2000, 4000]);
    expect(logger.at('error')).toHaveLength(1);
    expect(sender.stats().droppedTraces.total).toBe(0);

    fixed = true;
    time.releaseAll();
    expect(await Promise.all(tickets)).toEqual(Array(5).fill('delivered'));
    expect(service.accepted.size).toBe(5);
    expect([...service.accepted.values()].every((count) => count === 1)).toBe(true);
    expect(logger.at('info').filter((m) => m.includes('resumed'))).toHaveLength(1);
    expect(logger.at('error')).toHaveLength(1);
    expect(logger.text).not.toContain(API_KEY);
    await client.close();
  });

  it('gives up its traces at shutdown instead of waiting for a fix', async () => {
    service.handler = (): Reply => ({ status, body });
    const { sender, time, client } = createTestSender(service, { autoRelease: false, maxBatchTraces: 1 });
    const tickets = [sender.enqueue(makeRecord()), sender.enqueue(makeRecord())];
    await time.waitForSleepers(1);
    await sender.shutdown(30_000);
    expect(await Promise.all(tickets)).toEqual(['dropped', 'dropped']);
    expect(sender.stats().droppedTraces.byReason).toEqual({ shutdown: 2 });
    await client.close();
  });
});
