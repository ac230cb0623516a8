import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  OWNER_FILE,
  OwnerWatch,
  ownerIsGone,
  STALE_MS,
  thisHost,
  thisPidNamespace,
} from '../src/spill/spill-owners.js';

/** Another process of this host that runs while the tests do. */
let live: ChildProcess;
beforeAll(() => {
  live = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1 << 30)'], { stdio: 'ignore' });
});
afterAll(() => {
  live.kill();
});
let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'aqm-owners-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

/** A claim folder whose owner file names `pid` on `host`, last touched `ageMs` ago. */
async function claimFolder(
  name: string,
  owner: { pid: number; host: string; beat?: number; pidNamespace?: string } | undefined,
  ageMs: number,
) {
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
    const dir = await claimFolder('live', { pid: live.pid as number, host: thisHost() }, 1_000);
    expect(await ownerIsGone(dir, now())).toBe(false);
  });

  it('a live process of this host keeps its folder however old its heartbeat looks (a clock stepped forward)', async () => {
    const dir = await claimFolder(
      'stepped',
      { pid: live.pid as number, host: thisHost(), beat: 3 },
      10 * STALE_MS,
    );
    expect(await ownerIsGone(dir, now())).toBe(false);
    expect(await ownerIsGone(dir, now() + 3_600_000, new OwnerWatch())).toBe(false);
  });

  it("this process's own pid in a claim folder it did not open is an earlier process (a restarted container)", async () => {
    const dir = await claimFolder('earlier', { pid: process.pid, host: thisHost() }, 1_000);
    expect(await ownerIsGone(dir, now())).toBe(true);
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

  it("another host: judged by its heartbeat sequence advancing on the observer's monotonic clock, never by wall-clock age", async () => {
    let monotonic = 1_000;
    const watch = new OwnerWatch(() => monotonic);
    // Its owner file looks two minutes old to this host (skewed clocks, or this one stepped forward).
    const owner = { pid: 1, host: 'elsewhere.example', beat: 7 };
    const dir = await claimFolder('skewed', owner, 2 * 60_000);
    expect(await ownerIsGone(dir, now(), watch)).toBe(false); // first seen: alive
    monotonic += STALE_MS - 1;
    expect(await ownerIsGone(dir, now(), watch)).toBe(false);
    await writeFile(join(dir, OWNER_FILE), JSON.stringify({ ...owner, beat: 8, startedAt: 0 }));
    expect(await ownerIsGone(dir, now(), watch)).toBe(false); // it advanced: the window starts again
    monotonic += STALE_MS - 1;
    expect(await ownerIsGone(dir, now(), watch)).toBe(false);
    monotonic += 1;
    expect(await ownerIsGone(dir, now(), watch)).toBe(true); // stood still for STALE_MS
  });

  it('same hostname but another pid namespace (another container) counts as another host', async () => {
    const ns = thisPidNamespace();
    if (ns === undefined) return; // no pid namespaces here (not Linux)
    // A pid that runs here, but in the other container it names another process.
    const dir = await claimFolder(
      'container',
      { pid: live.pid as number, host: thisHost(), pidNamespace: 'pid:[1]', beat: 1 },
      0,
    );
    let monotonic = 0;
    const watch = new OwnerWatch(() => monotonic);
    expect(await ownerIsGone(dir, now(), watch)).toBe(false);
    monotonic += STALE_MS;
    expect(await ownerIsGone(dir, now(), watch)).toBe(true);
  });

  it('an owner file that is a FIFO is not waited on: the folder counts by its own age', async () => {
    const young = await claimFolder('fifo-young', undefined, 1_000);
    execFileSync('mkfifo', [join(young, OWNER_FILE)]);
    const old = await claimFolder('fifo-old', undefined, 0);
    execFileSync('mkfifo', [join(old, OWNER_FILE)]);
    const when = new Date(Date.now() - STALE_MS - 5_000);
    await utimes(old, when, when);
    const verdicts = Promise.all([ownerIsGone(young, now()), ownerIsGone(old, now())]);
    const timeout = new Promise<'stuck'>((resolve) => setTimeout(() => resolve('stuck'), 5_000).unref());
    expect(await Promise.race([verdicts, timeout])).toEqual([false, true]);
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
