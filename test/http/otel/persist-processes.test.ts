import { randomBytes } from 'node:crypto';
import { readdir, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AqmStats } from '@aqm/otel';
import { describe, expect, it } from 'vitest';
import { withPersistStack } from './helpers/persist-stack.js';
import { recordJson, startSpillChild, traceIdsOnDisk, writeSpillFile } from './helpers/spill-files.js';
import { waitFor } from './helpers/wait.js';

const newTraceId = () => randomBytes(16).toString('hex');

describe('persistDir across processes (child processes, the local service)', () => {
  const stack = withPersistStack('persist-processes');

  it('kill -9 during an outage, then a new process on the folder: every trace that reached disk is delivered', async () => {
    const applicationId = await stack.service.createApp('persist-kill');
    stack.service.srv.setFaults({ rules: [{ route: 'evaluations.submit', status: 503 }] });
    const app = startSpillChild(stack.envFor(applicationId, { MODE: 'produce', TRACES: '400' }));
    try {
      await waitFor(
        () => app.lines.length > 0,
        'the app to have every trace on disk or in memory',
        30_000,
        app.stderr,
      );
    } finally {
      await app.kill9();
    }
    const report = app.lines[0] as { ids: string[]; stats: AqmStats };
    const onDisk = await traceIdsOnDisk(stack.dir);
    expect(onDisk.length).toBeGreaterThan(300); // memory held a few dozen; the rest went to disk
    expect(new Set(onDisk).size).toBe(onDisk.length);
    expect(report.stats.droppedTraces.total).toBe(0);
    // The killed process's claim folder is still there: nobody has taken it over yet.
    expect((await readdir(join(stack.dir, 'owners'))).length).toBe(1);

    stack.service.srv.setFaults(null);
    const successor = startSpillChild(stack.envFor(applicationId, { MODE: 'drain' }));
    expect(await successor.exited, successor.stderr()).toBe(0);
    for (const id of onDisk) expect(stack.proxy.accepted.get(id), id).toBe(1);
    const drained = successor.lines[0] as { stats: AqmStats };
    expect(drained.stats.disk?.replayedTraces).toBe(onDisk.length);
    expect(await traceIdsOnDisk(stack.dir)).toEqual([]);
    expect(await readdir(join(stack.dir, 'owners'))).toEqual([]); // the dead owner's folder was taken over
  }, 60_000);

  it('the claim folder of a process on another host whose heartbeat stopped is taken over and sent', async () => {
    const applicationId = await stack.service.createApp('persist-stale-owner');
    // As a process on another machine sharing the folder leaves it when it dies mid-send.
    const ownerDir = join(stack.dir, 'owners', 'a1b2c3d4e5f6'); // named as @aqm/otel names them
    const records = Array.from({ length: 30 }, () => {
      const id = newTraceId();
      return { traceId: id, json: recordJson(id) };
    });
    await writeSpillFile(ownerDir, 1_700_000_000_000, records);
    await writeFile(
      join(ownerDir, 'owner.json'),
      JSON.stringify({ pid: 1, host: 'another-host.example', startedAt: 1_700_000_000_000 }),
    );
    const stopped = new Date(Date.now() - 2 * 60_000); // its last heartbeat, two minutes ago
    await utimes(join(ownerDir, 'owner.json'), stopped, stopped);

    const successor = startSpillChild(stack.envFor(applicationId, { MODE: 'drain' }));
    expect(await successor.exited, successor.stderr()).toBe(0);
    for (const { traceId } of records) expect(stack.proxy.accepted.get(traceId), traceId).toBe(1);
    expect(await readdir(join(stack.dir, 'owners'))).toEqual([]);
  }, 60_000);

  it('two processes sharing one folder send every file once', async () => {
    const applicationId = await stack.service.createApp('persist-shared');
    const ids: string[] = [];
    for (let file = 0; file < 40; file += 1) {
      const records = Array.from({ length: 25 }, () => {
        const id = newTraceId();
        ids.push(id);
        return { traceId: id, json: recordJson(id) };
      });
      await writeSpillFile(stack.dir, 1_700_000_000_000 + file, records, file);
    }
    const before = stack.proxy.accepted.size;
    const first = startSpillChild(stack.envFor(applicationId, { MODE: 'drain' }));
    const second = startSpillChild(stack.envFor(applicationId, { MODE: 'drain' }));
    expect(await first.exited, first.stderr()).toBe(0);
    expect(await second.exited, second.stderr()).toBe(0);
    expect(stack.proxy.accepted.size - before).toBe(ids.length);
    for (const id of ids) expect(stack.proxy.accepted.get(id), id).toBe(1);
    const replayed = [first, second].map(
      (child) => (child.lines[0] as { stats: AqmStats }).stats.disk?.replayedTraces ?? 0,
    );
    expect((replayed[0] ?? 0) + (replayed[1] ?? 0)).toBe(ids.length);
    console.info(`[persist-shared] ${ids.length} traces replayed by two processes: ${replayed.join(' + ')}`);
  }, 60_000);
});
