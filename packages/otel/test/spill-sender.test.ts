import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DiskSpill } from '../src/spill/disk-spill.js';
import { CaptureLogger } from './export-helpers/capture-logger.js';
import { acceptReply, errorReply } from './export-helpers/fake-service.js';
import { makeRecord, recordBytes } from './export-helpers/records.js';
import { API_KEY, createTestSender } from './export-helpers/sender-setup.js';
import { withSpillOutage } from './export-helpers/spill-outage.js';

const { service, dir, recover, spillFor, senderOverSpill } = withSpillOutage('aqm-spill-unit-');

async function until(condition: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, 5));
}

describe('TraceSender with a DiskSpill behind its queue', () => {
  it('writes what memory cannot hold, replays it once the service answers, and deletes the files', async () => {
    const record = makeRecord();
    const { spill, sender, client, time } = await senderOverSpill(record);
    const records = [record, ...Array.from({ length: 9 }, () => makeRecord())];
    const tickets = records.map((r) => sender.enqueue(r));
    const outcomes = await Promise.all(tickets.slice(3));
    expect(outcomes).toEqual(Array(7).fill('persisted'));
    expect(spill.stats()).toMatchObject({ traces: 7, spilledTraces: 7, writable: true });
    const names = (await readdir(dir())).filter((name) => name.endsWith('.aqmspill'));
    expect(names.length).toBeGreaterThan(0);
    for (const name of names) {
      expect((await stat(join(dir(), name))).mode & 0o777).toBe(0o600);
      expect(await readFile(join(dir(), name), 'utf8')).not.toContain(API_KEY);
    }
    expect((await stat(dir())).mode & 0o777).toBe(0o700);

    recover();
    time.releaseAll(); // the in-memory batch is retried, and the service answers again
    await until(() => service().accepted.size === records.length && spill.stats().traces === 0);
    expect([...service().accepted.values()].every((count) => count === 1)).toBe(true);
    expect(spill.stats()).toMatchObject({ replayedTraces: 7, files: 0 });
    expect((await readdir(dir())).filter((name) => name.endsWith('.aqmspill'))).toEqual([]);
    await sender.shutdown(1000);
    await spill.close();
    await client.close();
  });

  it('puts a batch whose retry time ran out on disk instead of dropping it', async () => {
    const spill = spillFor();
    const { sender, client } = createTestSender(service(), { maxRetryElapsedMs: 10_000, overflow: spill });
    spill.attach(sender);
    await until(() => spill.writable);
    const ticket = sender.enqueue(makeRecord());
    expect(await ticket).toBe('persisted');
    expect(sender.stats().droppedTraces.total).toBe(0);
    expect(spill.stats().traces).toBe(1);
    await sender.shutdown(1000);
    await spill.close();
    await client.close();
  });

  it('at maxDiskBytes deletes the oldest file first and counts it as disk-full', async () => {
    const logger = new CaptureLogger();
    const spill = spillFor(logger, 1024 * 1024);
    const { sender, client } = createTestSender(service(), {
      maxQueueTraces: 1,
      maxRetryElapsedMs: 600_000_000,
      overflow: spill,
      autoRelease: false,
    });
    spill.attach(sender);
    await until(() => spill.writable);
    sender.enqueue(makeRecord());
    // Large records, one file each (each write waits for the one before).
    const big = () => makeRecord({ prompt: 'x'.repeat(300_000) });
    for (let i = 0; i < 5; i += 1) expect(await sender.enqueue(big())).toBe('persisted');
    expect(spill.evictedTraces).toBeGreaterThan(0);
    expect(spill.stats().bytes).toBeLessThanOrEqual(1024 * 1024);
    expect(logger.at('warn').some((line) => line.includes('disk-full'))).toBe(true);
    await sender.shutdown(100);
    await spill.close();
    await client.close();
  });
});

describe('DiskSpill when the disk refuses writes', () => {
  it('goes memory-only, says so once, and takes writes again on a later try', async () => {
    const logger = new CaptureLogger();
    const blocker = join(dir(), 'blocker');
    await writeFile(blocker, 'a file where the folder should be');
    const spill = new DiskSpill({
      dir: join(blocker, 'spill'),
      maxDiskBytes: 64 * 1024 * 1024,
      maxBatchTraces: 50,
      maxBatchBytes: 1024 * 1024,
      batchDelayMs: 0,
      logger,
      retryMs: 50,
    });
    spill.attach({ canTakeReplay: () => false, admit: () => [] });
    await until(() => !spill.writable);
    expect(logger.at('warn').filter((line) => line.includes('refuses writes'))).toHaveLength(1);
    expect(spill.canBuffer(10)).toBe(false);

    await rm(blocker);
    await mkdir(blocker);
    await until(() => spill.writable); // the retry time has passed
    const record = makeRecord();
    expect(
      await spill.write([
        { traceId: record.traceId, json: JSON.stringify(record), bytes: recordBytes(record) },
      ]),
    ).toBe(true);
    expect(spill.stats()).toMatchObject({ writable: true, traces: 1, spilledTraces: 1 });
    expect(logger.at('info').some((line) => line.includes('takes writes again'))).toBe(true);
    expect(logger.at('warn').filter((line) => line.includes('refuses writes'))).toHaveLength(1);
    await spill.close();
  });
});

describe('records read back from disk', () => {
  it('stay on disk after a failure that is not about them (409), and leave it after a 400 names them', async () => {
    // A file left by an earlier process.
    const earlier = spillFor();
    earlier.attach({ canTakeReplay: () => false, admit: () => [] });
    const good = makeRecord();
    const bad = makeRecord();
    const toDisk = (r: typeof good) => ({
      traceId: r.traceId,
      json: JSON.stringify(r),
      bytes: recordBytes(r),
    });
    expect(await earlier.write([toDisk(good), toDisk(bad)])).toBe(true);
    await earlier.close();

    let answer: 'conflict' | 'reject-bad' = 'conflict';
    service().handler = (request) => {
      if (answer === 'conflict') return errorReply(409, 'conflict');
      const index = request.traces.findIndex((trace) => trace.traceId === bad.traceId);
      if (index < 0) return acceptReply(request);
      return {
        status: 400,
        body: {
          success: false,
          message: 'invalid',
          errors: [{ path: `traces[${index}].prompt`, message: 'bad' }],
        },
      };
    };
    const pool = async () => (await readdir(dir())).filter((name) => name.endsWith('.aqmspill'));
    const first = spillFor();
    const one = createTestSender(service(), { overflow: first });
    first.attach(one.sender);
    await until(
      async () => service().requests.length === 1 && first.stats().files === 1 && (await pool()).length === 1,
    );
    expect(one.sender.stats().droppedTraces.total).toBe(0); // kept, not dropped
    await one.sender.shutdown(1000);
    await first.close();
    await one.client.close();

    answer = 'reject-bad';
    const second = spillFor();
    const two = createTestSender(service(), { overflow: second });
    second.attach(two.sender);
    await until(
      async () =>
        service().accepted.has(good.traceId) && (await pool()).length === 0 && second.stats().files === 0,
    );
    expect(two.sender.stats().droppedTraces.byReason.rejected).toBe(1);
    expect(second.stats().replayedTraces).toBe(1);
    await two.sender.shutdown(1000);
    await second.close();
    await two.client.close();
  });
});
