import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AqmStats } from '@aqm/otel';
import { describe, expect, it } from 'vitest';
import { startJsonLinesChild } from './helpers/json-lines-child.js';
import { withPersistStack } from './helpers/persist-stack.js';
import { storedTraces } from './helpers/service.js';
import { waitFor } from './helpers/wait.js';

const CHILD = fileURLToPath(new URL('./fixtures/write-ahead-child.mjs', import.meta.url));

/** A write-ahead child; `ids()` are the trace ids it printed (handed over), `lines` its other lines. */
function startChild(env: Record<string, string>) {
  const child = startJsonLinesChild(CHILD, env);
  const isId = (line: Record<string, unknown>) => typeof line.id === 'string';
  return {
    ...child,
    ids: () => child.lines.filter(isId).map((line) => line.id as string),
    lines: () => child.lines.filter((line) => !isId(line)),
  };
}

describe("persistMode 'write-ahead': kill -9 loses nothing handed over (child processes, the local service)", () => {
  const stack = withPersistStack('persist-write-ahead');
  const envFor = (applicationId: string, mode: string) => stack.envFor(applicationId, { MODE: mode });

  /** Kills a streaming child once it handed over `count` traces; a successor drains the folder. */
  async function killThenDrain(applicationId: string, count: number, whileDown: () => void) {
    const app = startChild(envFor(applicationId, 'stream'));
    try {
      await waitFor(
        () => app.ids().length >= count,
        `the app to hand over ${count} traces`,
        30_000,
        app.stderr,
      );
    } finally {
      await app.kill9();
    }
    const handedOver = app.ids();
    whileDown();
    const successor = startChild(envFor(applicationId, 'drain'));
    expect(await successor.exited, successor.stderr()).toBe(0);
    const drained = successor.lines()[0] as { stats: AqmStats };
    expect(drained.stats.droppedTraces.total).toBe(0);
    const stored = await storedTraces(stack.service.client, applicationId);
    const missing = handedOver.filter((id) => !stored.traceIds.has(id));
    expect(missing, `${missing.length} of ${handedOver.length} handed over are missing`).toEqual([]);
    expect(stored.total).toBe(stored.traceIds.size); // each stored once
    expect(await readdir(join(stack.dir, 'owners'))).toEqual([]);
    return { handedOver, stored };
  }

  it('during an outage (memory full, the rest in the log): every trace handed over before the kill is stored once', async () => {
    const applicationId = await stack.service.createApp('write-ahead-outage');
    stack.service.srv.setFaults({ rules: [{ route: 'evaluations.submit', status: 503 }] });
    const { handedOver } = await killThenDrain(applicationId, 600, () => stack.service.srv.setFaults(null));
    // Nothing was delivered before the kill: each trace went through the service exactly once.
    for (const id of handedOver) expect(stack.proxy.accepted.get(id), id).toBe(1);
  }, 90_000);

  it('while the service answers: what was in memory and in flight at the kill is stored once', async () => {
    const applicationId = await stack.service.createApp('write-ahead-live');
    await killThenDrain(applicationId, 1500, () => {});
  }, 90_000);
});
