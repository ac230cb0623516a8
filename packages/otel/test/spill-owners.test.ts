import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OWNER_FILE, ownerIsGone, STALE_MS, thisHost } from '../src/spill/spill-owners.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'aqm-owners-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

/** A claim folder whose owner file names `pid` on `host`, last touched `ageMs` ago. */
async function claimFolder(name: string, owner: { pid: number; host: string } | undefined, ageMs: number) {
  const dir = join(root, name);
  await mkdir(dir);
  const when = new Date(Date.now() - ageMs);
  if (owner !== undefined) {
    await writeFile(join(dir, OWNER_FILE), JSON.stringify({ ...owner, startedAt: 0 }));
    await utimes(join(dir, OWNER_FILE), when, when);
  }
  await utimes(dir, when, when);
  return dir;
}

/** The pid of a process that has exited. */
function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '0']).pid as number;
}

describe('ownerIsGone: whose claim folder may be taken over', () => {
  const now = () => Date.now();

  it('a live process of this host with a fresh heartbeat keeps its folder', async () => {
    const dir = await claimFolder('live', { pid: process.pid, host: thisHost() }, 1_000);
    expect(await ownerIsGone(dir, now())).toBe(false);
  });

  it('a process of this host that no longer runs gives its folder up at once', async () => {
    const dir = await claimFolder('dead', { pid: deadPid(), host: thisHost() }, 1_000);
    expect(await ownerIsGone(dir, now())).toBe(true);
  });

  it('a process of another host: kept while its heartbeat is fresh, taken over once it stopped for STALE_MS', async () => {
    const fresh = await claimFolder('fresh', { pid: 1, host: 'elsewhere.example' }, STALE_MS - 5_000);
    const stale = await claimFolder('stale', { pid: 1, host: 'elsewhere.example' }, STALE_MS + 5_000);
    expect(await ownerIsGone(fresh, now())).toBe(false);
    expect(await ownerIsGone(stale, now())).toBe(true);
  });

  it('a live process of this host whose heartbeat stopped (it hangs) is taken over too', async () => {
    const dir = await claimFolder('hung', { pid: process.pid, host: thisHost() }, STALE_MS + 5_000);
    expect(await ownerIsGone(dir, now())).toBe(true);
  });

  it('a folder without a readable owner file counts by its own age', async () => {
    const young = await claimFolder('young', undefined, 1_000);
    const old = await claimFolder('old', undefined, STALE_MS + 5_000);
    const garbled = await claimFolder('garbled', undefined, 1_000);
    await writeFile(join(garbled, OWNER_FILE), '{not json');
    expect(await ownerIsGone(young, now())).toBe(false);
    expect(await ownerIsGone(old, now())).toBe(true);
    expect(await ownerIsGone(garbled, now())).toBe(false);
    expect(await ownerIsGone(join(root, 'removed meanwhile'), now())).toBe(false);
  });
});
