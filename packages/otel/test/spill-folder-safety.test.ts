import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DeliveryOutcome } from '../src/export/queued-trace.js';
import { DiskSpill, type ReplayTarget } from '../src/spill/disk-spill.js';
import { encodeSpillFile, type SpillRecord, spillFileName } from '../src/spill/spill-file.js';
import { SpillFolder } from '../src/spill/spill-folder.js';
import { CaptureLogger } from './export-helpers/capture-logger.js';

let dir: string;
/** A folder of the app's own, that a spill folder must never touch. */
let appDir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'aqm-spill-safety-'));
  appDir = await mkdtemp(join(tmpdir(), 'aqm-spill-app-'));
  await mkdir(join(appDir, 'uploads'));
  await writeFile(join(appDir, 'uploads', 'photo.jpg'), 'precious');
  await writeFile(join(appDir, 'settings.json'), '{}');
  const old = new Date(Date.now() - 10 * 60_000);
  for (const path of [join(appDir, 'uploads'), appDir]) await utimes(path, old, old);
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
  await rm(appDir, { recursive: true, force: true });
});

function spillFor(logger: CaptureLogger, spillDir = dir): DiskSpill {
  return new DiskSpill({
    dir: spillDir,
    maxDiskBytes: 64 * 1024 * 1024,
    maxBatchTraces: 50,
    maxBatchBytes: 1024 * 1024,
    batchDelayMs: 0,
    logger,
    retryMs: 60_000,
  });
}

/** A sender stand-in that takes every file and says its records were delivered. */
function acceptingTarget(): ReplayTarget & { ids: string[] } {
  const ids: string[] = [];
  return {
    ids,
    canTakeReplay: () => true,
    admit: (records) => {
      ids.push(...records.map((record) => record.traceId));
      return records.map(() => Promise.resolve<DeliveryOutcome>('delivered'));
    },
  };
}

async function until(condition: () => boolean | Promise<boolean>, what: string, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

async function poolFile(at: number, ids: string[]): Promise<string> {
  const records: SpillRecord[] = ids.map((id) => ({ traceId: id, body: Buffer.from(`{"traceId":"${id}"}`) }));
  const data = Buffer.concat(encodeSpillFile(records));
  const name = spillFileName(at, 'test', 1, records.length, data.length);
  await writeFile(join(dir, name), data, { mode: 0o600 });
  return name;
}

async function appDirUntouched(): Promise<void> {
  expect((await readdir(appDir)).sort()).toEqual(['settings.json', 'uploads']);
  expect(await readFile(join(appDir, 'uploads', 'photo.jpg'), 'utf8')).toBe('precious');
}

const refusedLines = (logger: CaptureLogger) => logger.at('warn').filter((l) => l.includes('is not used'));

describe('a spill folder touches only what it created', () => {
  for (const part of ['owners', 'corrupt'] as const) {
    it(`refuses a folder whose ${part}/ is a symbolic link: memory only, said once, nothing behind the link touched`, async () => {
      await symlink(appDir, join(dir, part));
      const logger = new CaptureLogger();
      const spill = spillFor(logger);
      spill.attach(acceptingTarget());
      await until(() => refusedLines(logger).length > 0, 'the refusal');
      expect(refusedLines(logger)).toEqual([
        expect.stringMatching(
          new RegExp(`^persistDir ${dir} is not used \\(${part}/ is a symbolic link \\(to ${appDir}\\)`),
        ),
      ]);
      expect(spill.writable).toBe(false);
      expect(spill.canBuffer(10)).toBe(false);
      expect(await spill.write([{ traceId: 't', json: '{}', bytes: 2 }])).toBe(false);
      await spill.close(1000);
      expect(refusedLines(logger)).toHaveLength(1);
      expect(logger.text).not.toContain('refuses writes');
      await appDirUntouched();
    });
  }

  it("leaves an app's folder, a link and a file in owners/ alone, however old, and a folder in the pool", async () => {
    await poolFile(1_700_000_000_000, ['a1']);
    await mkdir(join(dir, 'owners'));
    // An app's own folder (no owner file, ten minutes old), a link to one, a plain file.
    await mkdir(join(dir, 'owners', 'cache'));
    await writeFile(join(dir, 'owners', 'cache', 'keep.bin'), 'data');
    await symlink(appDir, join(dir, 'owners', 'a1b2c3d4e5f6'));
    await writeFile(join(dir, 'owners', 'README'), 'a plain file');
    await mkdir(join(dir, 'album.aqmspill')); // a folder, whatever its name, is never one of its files
    const old = new Date(Date.now() - 10 * 60_000);
    await utimes(join(dir, 'owners', 'cache'), old, old);
    const logger = new CaptureLogger();
    const spill = spillFor(logger);
    const target = acceptingTarget();
    spill.attach(target);
    await until(() => target.ids.length === 1 && spill.stats().files === 0, 'the pool file sent');
    await spill.close(1000);
    expect((await readdir(join(dir, 'owners'))).sort()).toEqual(['README', 'a1b2c3d4e5f6', 'cache']);
    expect(await readFile(join(dir, 'owners', 'cache', 'keep.bin'), 'utf8')).toBe('data');
    expect((await stat(join(dir, 'album.aqmspill'))).isDirectory()).toBe(true);
    expect(spill.stats().corruptFiles).toBe(0);
    await appDirUntouched();
  });

  it('prunes corrupt/ of the files it moved there only', async () => {
    await mkdir(join(dir, 'corrupt'));
    await writeFile(join(dir, 'corrupt', '0-notes.txt'), 'the operator wrote this'); // sorts first
    for (let i = 0; i < 25; i += 1)
      await writeFile(join(dir, `${'x'.repeat(i + 1)}.aqmspill`), 'not ours to parse');
    const logger = new CaptureLogger();
    const spill = spillFor(logger);
    spill.attach(acceptingTarget());
    await until(() => spill.stats().corruptFiles === 25, 'every unknown name quarantined');
    await spill.close(1000);
    const kept = await readdir(join(dir, 'corrupt'));
    expect(kept).toContain('0-notes.txt');
    expect(kept.filter((name) => name.endsWith('.aqmspill'))).toHaveLength(20);
  });
});

describe('files that are not regular files', () => {
  it('a FIFO named as a spill file is quarantined without being opened for a blocking read; the valid file is sent and close() finishes', async () => {
    const fifo = join(dir, spillFileName(1_600_000_000_000, 'fifo', 1, 5, 100)); // the oldest: read first
    execFileSync('mkfifo', [fifo]);
    await poolFile(1_700_000_000_000, ['good-1', 'good-2']);
    const logger = new CaptureLogger();
    const spill = spillFor(logger);
    const target = acceptingTarget();
    spill.attach(target);
    await until(() => target.ids.length === 2, 'the valid file sent');
    expect(target.ids).toEqual(['good-1', 'good-2']);
    await until(() => spill.stats().corruptFiles === 1, 'the FIFO quarantined');
    expect(logger.at('warn')).toContainEqual(expect.stringContaining('a FIFO, not a regular file'));
    const closed = await Promise.race([spill.close(60_000).then(() => 'closed'), sleep(5000, 'stuck')]);
    expect(closed).toBe('closed');
    const [moved] = await readdir(join(dir, 'corrupt'));
    expect((await stat(join(dir, 'corrupt', moved as string))).isFIFO()).toBe(true);
  });

  it('a link named as a spill file is not followed: quarantined, its target untouched', async () => {
    await symlink(join(appDir, 'settings.json'), join(dir, spillFileName(1_600_000_000_000, 'l', 1, 1, 2)));
    const logger = new CaptureLogger();
    const spill = spillFor(logger);
    spill.attach(acceptingTarget());
    await until(() => spill.stats().corruptFiles === 1, 'the link quarantined');
    expect(logger.at('warn')).toContainEqual(expect.stringContaining('a symbolic link, not followed'));
    await spill.close(1000);
    await appDirUntouched();
  });
});

describe('the heartbeat', () => {
  it('makes its claim folder again when it was removed, instead of turning the disk off', async () => {
    const folder = new SpillFolder(dir);
    await folder.open();
    const first = JSON.parse(await readFile(join(folder.ownerDir, 'owner.json'), 'utf8'));
    await rm(folder.ownerDir, { recursive: true });
    await folder.heartbeat();
    const second = JSON.parse(await readFile(join(folder.ownerDir, 'owner.json'), 'utf8'));
    expect(second).toMatchObject({ pid: process.pid, startedAt: first.startedAt });
    expect(second.beat).toBeGreaterThan(first.beat);
    await folder.close();
    expect(await readdir(join(dir, 'owners'))).toEqual([]);
  });
});

describe('DiskSpill.close()', () => {
  it('resolves within its bound when the disk work does not finish, and says what it gave up', async () => {
    await poolFile(1_700_000_000_000, ['held']);
    const logger = new CaptureLogger();
    const spill = spillFor(logger);
    let admitted = false;
    spill.attach({
      canTakeReplay: () => true,
      admit: (records) => {
        admitted = true;
        return records.map(() => new Promise<DeliveryOutcome>(() => {})); // never settles
      },
    });
    await until(() => admitted, 'the file admitted');
    const closed = await Promise.race([spill.close(200).then(() => 'closed'), sleep(5000, 'stuck')]);
    expect(closed).toBe('closed');
    expect(logger.at('warn')).toContainEqual(
      expect.stringMatching(
        /closing gave up after 200 ms; unfinished: the files being sent; returning its claimed files to the folder\./,
      ),
    );
  });
});

function sleep<T>(ms: number, value: T): Promise<T> {
  return new Promise((resolve) => setTimeout(() => resolve(value), ms).unref());
}
