import type { AqmStats } from '@aqm/otel';
import { describe, expect, it } from 'vitest';
import { withPersistStack } from './helpers/persist-stack.js';
import { startSpillChild, traceIdsOnDisk } from './helpers/spill-files.js';
import { within } from './helpers/wait.js';

// Apps with no logging set up (child processes, the local service): what their stderr says when
// traces go to persistDir, and when a later process sends them from there.

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('persistDir says when traces go to disk and when they came back (child processes)', () => {
  const stack = withPersistStack('persist-notices');
  const envFor = (applicationId: string, extra: Record<string, string>) =>
    stack.envFor(applicationId, { OTEL_LOG_LEVEL: '', ...extra });

  it('the service down: one stderr line (how many, where); the next process: one line with how many were delivered', async () => {
    const applicationId = await stack.service.createApp('persist-notices');
    stack.service.srv.setFaults({ rules: [{ route: 'evaluations.submit', status: 503 }] });
    // 200 traces: more than memory holds (maxQueueBytes 64 KiB), written as several files of at most
    // 25 (maxBatchTraces) while the app runs, and the rest at shutdown.
    const app = startSpillChild(envFor(applicationId, { MODE: 'send', TRACES: '200' }));
    expect(await within(app.exited, 30_000, 'the app'), app.stderr()).toBe(0);
    const sent = app.lines[0] as { ids: string[]; stats: AqmStats };
    const onDisk = await traceIdsOnDisk(stack.dir);
    expect(onDisk.sort()).toEqual([...sent.ids].sort());
    expect(sent.stats.disk).toMatchObject({ spilledTraces: 200, replayedTraces: 0, traces: 200 });
    expect(sent.stats.droppedTraces.total).toBe(0);

    const writing = app
      .stderr()
      .split('\n')
      .filter((line) => line.includes('Writing traces to persistDir'));
    expect(writing, app.stderr()).toHaveLength(1);
    const [line] = writing as [string];
    const said = new RegExp(
      `^@aqm/otel: Writing traces to persistDir ${escapeRegExp(stack.dir)} \\(the queue in memory is full ` +
        '\\(maxQueueTraces or maxQueueBytes\\)\\): (\\d+) so far\\. They are sent from there once the ' +
        'service takes them, by this process or the next one on the folder; stats\\(\\)\\.disk counts ' +
        'what is written and sent back$',
    ).exec(line);
    expect(said, line).not.toBeNull();
    const soFar = Number(said?.[1]);
    expect(soFar).toBeGreaterThanOrEqual(1);
    expect(soFar).toBeLessThanOrEqual(25); // the first file's traces, not the whole outage
    expect(app.stderr()).not.toContain('Delivered');
    expect(app.stderr()).not.toContain(stack.service.apiKey);

    stack.service.srv.setFaults(null);
    const successor = startSpillChild(envFor(applicationId, { MODE: 'drain' }));
    expect(await within(successor.exited, 30_000, 'the next process'), successor.stderr()).toBe(0);
    for (const id of sent.ids) expect(stack.proxy.accepted.get(id), id).toBe(1);
    const drained = successor.lines[0] as { stats: AqmStats };
    expect(drained.stats.disk).toMatchObject({ spilledTraces: 0, replayedTraces: 200, files: 0 });
    expect(successor.stderr().split('\n').filter(Boolean)).toEqual([
      `@aqm/otel: Delivered 200 trace(s) from persistDir ${stack.dir}; nothing waits there any more`,
    ]);
  }, 90_000);
});
