import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CliIo } from '../src/io.js';
import { runCli } from '../src/run-cli.js';

function memoryIo(env: Record<string, string> = {}): CliIo & { out: () => string; err: () => string } {
  let out = '';
  let err = '';
  return {
    stdout: { write: (s: string) => (out += s) },
    stderr: { write: (s: string) => (err += s) },
    env,
    now: () => new Date(1_700_000_060_000),
    out: () => out,
    err: () => err,
  };
}

/** A spill file's name as @aqm/otel writes it (its content is not read by these commands). */
const fileName = (at: number, traces: number, bytes: number) =>
  `${String(at).padStart(15, '0')}-t-1.n${traces}.b${bytes}.aqmspill`;

/** Another process of this host that runs while the tests do: a live owner of a claim folder. */
let live: ChildProcess;
beforeAll(() => {
  live = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1 << 30)'], { stdio: 'ignore' });
});
afterAll(() => {
  live.kill();
});

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'aqm-cli-spill-'));
  await writeFile(join(dir, fileName(1_700_000_000_000, 100, 2048)), 'x');
  await writeFile(join(dir, fileName(1_700_000_030_000, 20, 1024)), 'x');
  await writeFile(join(dir, 'notes.txt'), 'a file of the user: never touched');
  // A claim folder of a process that is gone (no such pid on this host).
  const gone = join(dir, 'owners', 'g0ne0a1b2c3d');
  await mkdir(gone, { recursive: true });
  await writeFile(
    join(gone, 'owner.json'),
    JSON.stringify({ pid: 2 ** 22 + 7, host: (await import('node:os')).hostname(), startedAt: 0 }),
  );
  await writeFile(join(gone, fileName(1_699_999_000_000, 5, 512)), 'x');
  await mkdir(join(dir, 'corrupt'));
  await writeFile(join(dir, 'corrupt', `1-${fileName(1, 1, 1)}`), 'torn');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('aqm spill', () => {
  it('status shows the backlog, the oldest, the processes and corrupt files', async () => {
    const io = memoryIo();
    expect(await runCli(['spill', 'status', '--dir', dir], io)).toBe(0);
    expect(io.out()).toContain('120 traces in 2 files');
    expect(io.out()).toMatch(/oldest:\s+18m ago/);
    expect(io.out()).toContain('gone (its files are taken over)');
    expect(io.out()).toMatch(/corrupt:\s+1 files/);
    const json = memoryIo({ AQM_PERSIST_DIR: dir });
    expect(await runCli(['spill', 'status', '--json'], json)).toBe(0);
    expect(JSON.parse(json.out())).toMatchObject({
      waiting: { files: 2, traces: 120, bytes: 3072 },
      exists: true,
    });
  });

  it('purge says what it would delete and deletes only with --yes, leaving other files alone', async () => {
    const dry = memoryIo();
    expect(await runCli(['spill', 'purge', '--dir', dir], dry)).toBe(2);
    expect(dry.err()).toContain('purge would delete 125 trace(s)');
    expect((await readdir(dir)).filter((n) => n.endsWith('.aqmspill'))).toHaveLength(2);

    const io = memoryIo();
    expect(await runCli(['spill', 'purge', '--dir', dir, '--yes'], io)).toBe(0);
    expect(io.out()).toContain('Deleted 125 trace(s) in 3 file(s)');
    expect((await readdir(dir)).sort()).toEqual(['corrupt', 'notes.txt', 'owners']);
    expect(await readdir(join(dir, 'owners'))).toEqual([]);
    expect(await readdir(join(dir, 'corrupt'))).toEqual([]);
  });

  it("purge's dry run says which traces a running process keeps", async () => {
    // A claim folder of a live process: this one.
    const liveDir = join(dir, 'owners', 'l1ve0a1b2c3d');
    await mkdir(liveDir, { recursive: true });
    await writeFile(
      join(liveDir, 'owner.json'),
      JSON.stringify({ pid: live.pid, host: (await import('node:os')).hostname(), startedAt: 0 }),
    );
    await writeFile(join(liveDir, fileName(1_700_000_050_000, 7, 256)), 'x');
    const dry = memoryIo();
    expect(await runCli(['spill', 'purge', '--dir', dir], dry)).toBe(2);
    expect(dry.err()).toContain('purge would delete 125 trace(s)');
    expect(dry.err()).toContain('(7 trace(s) that a running process is sending would stay)');

    const io = memoryIo();
    expect(await runCli(['spill', 'purge', '--dir', dir, '--yes'], io)).toBe(0);
    expect(io.err()).toContain('Left 7 trace(s) that a running process is sending');
    // Only the live process's files are left: nothing to delete, and the dry run still says what stays.
    const again = memoryIo();
    expect(await runCli(['spill', 'purge', '--dir', dir], again)).toBe(0);
    expect(again.out()).toBe(`Nothing to purge in ${dir}.\n`);
    expect(again.err()).toContain('Left 7 trace(s) that a running process is sending');
  });

  it('status and purge count write-ahead logs: those of processes that are gone go, a live one stays', async () => {
    const gone = join(dir, 'owners', 'g0ne0a1b2c3d');
    await writeFile(join(gone, 'wal-g0ne0a1b2c3d-1.aqmwal'), 'x'.repeat(2048));
    await symlink(join(dir, 'notes.txt'), join(gone, 'wal-g0ne0a1b2c3d-2.aqmwal')); // not one: a link
    const liveDir = join(dir, 'owners', 'l1ve0a1b2c3d');
    await mkdir(liveDir, { recursive: true });
    await writeFile(
      join(liveDir, 'owner.json'),
      JSON.stringify({ pid: live.pid, host: (await import('node:os')).hostname(), startedAt: 0 }),
    );
    await writeFile(join(liveDir, 'wal-l1ve0a1b2c3d-1.aqmwal'), 'x'.repeat(1024));
    const status = memoryIo();
    expect(await runCli(['spill', 'status', '--dir', dir], status)).toBe(0);
    expect(status.out()).toMatch(
      /write-ahead:\s+1 log file\(s\) \(1\.0 KiB\) of live process\(es\), 1 \(2\.0 KiB\) of processes that are gone/,
    );
    const dry = memoryIo();
    expect(await runCli(['spill', 'purge', '--dir', dir], dry)).toBe(2);
    expect(dry.err()).toContain('1 write-ahead log file(s) of processes that are gone');
    const io = memoryIo();
    expect(await runCli(['spill', 'purge', '--dir', dir, '--yes'], io)).toBe(0);
    expect(io.out()).toContain('1 write-ahead log file(s) (2.0 KiB)');
    // The gone process's log went (its folder stays only for the link, which is not followed);
    // the live process's log is its own.
    expect(await readdir(gone)).toEqual(['wal-g0ne0a1b2c3d-2.aqmwal']);
    expect(await readFile(join(dir, 'notes.txt'), 'utf8')).toBe('a file of the user: never touched');
    expect((await readdir(liveDir)).sort()).toEqual(['owner.json', 'wal-l1ve0a1b2c3d-1.aqmwal']);
  });

  it('purge of an empty or missing folder says there is nothing to purge and exits 0', async () => {
    const empty = await mkdtemp(join(tmpdir(), 'aqm-cli-spill-empty-'));
    try {
      for (const yes of [[], ['--yes']]) {
        const io = memoryIo();
        expect(await runCli(['spill', 'purge', '--dir', empty, ...yes], io)).toBe(0);
        expect(io.out()).toBe(`Nothing to purge in ${empty}.\n`);
        expect(io.err()).toBe('');
        const missing = memoryIo();
        expect(await runCli(['spill', 'purge', '--dir', join(empty, 'nope'), ...yes], missing)).toBe(0);
        expect(missing.out()).toBe(`Nothing to purge in ${join(empty, 'nope')} (it does not exist).\n`);
      }
      const json = memoryIo();
      expect(await runCli(['spill', 'purge', '--dir', empty, '--json'], json)).toBe(0);
      expect(json.out()).toBe('');
      expect(json.err()).toBe(`Nothing to purge in ${empty}.\n`);
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
  });

  it('needs a folder, and says so for one that does not exist', async () => {
    const none = memoryIo();
    expect(await runCli(['spill', 'status'], none)).toBe(2);
    expect(none.err()).toContain('pass --dir <path> or set AQM_PERSIST_DIR');
    const missing = memoryIo();
    expect(await runCli(['spill', 'status', '--dir', join(dir, 'nope')], missing)).toBe(0);
    expect(missing.err()).toContain('does not exist');
  });
});

describe('aqm spill on a folder whose parts are not its own', () => {
  /** A folder of the app's own, with files a purge must never touch. */
  let appDir: string;
  beforeEach(async () => {
    appDir = await mkdtemp(join(tmpdir(), 'aqm-cli-spill-app-'));
    await mkdir(join(appDir, 'uploads'));
    await writeFile(join(appDir, 'uploads', 'photo.jpg'), 'precious');
    await writeFile(join(appDir, fileName(1_600_000_000_000, 3, 99)), 'named like a spill file');
    await writeFile(join(appDir, `1-${fileName(1, 1, 1)}`), 'named like a corrupt file');
  });
  afterEach(async () => {
    await rm(appDir, { recursive: true, force: true });
  });

  for (const part of ['owners', 'corrupt'] as const) {
    it(`refuses a ${part}/ that is a symbolic link, with exit 2, and deletes nothing behind it`, async () => {
      await rm(join(dir, part), { recursive: true });
      await symlink(appDir, join(dir, part));
      for (const command of [['status'], ['purge'], ['purge', '--yes']]) {
        const io = memoryIo();
        expect(await runCli(['spill', ...command, '--dir', dir], io), command.join(' ')).toBe(2);
        expect(io.err()).toContain(`is not a spill folder aqm can use: ${part}/ is a symbolic link`);
        expect(io.out()).toBe('');
      }
      expect((await readdir(appDir)).sort()).toEqual(
        [`1-${fileName(1, 1, 1)}`, fileName(1_600_000_000_000, 3, 99), 'uploads'].sort(),
      );
      expect(await readFile(join(appDir, 'uploads', 'photo.jpg'), 'utf8')).toBe('precious');
      // Nothing of the folder itself was deleted either: it says so before touching anything.
      expect((await readdir(dir)).filter((n) => n.endsWith('.aqmspill'))).toHaveLength(2);
    });
  }

  it('leaves entries of owners/ it did not create: a plain file, a link, a folder of another name', async () => {
    await writeFile(join(dir, 'owners', 'README'), 'a plain file');
    await symlink(appDir, join(dir, 'owners', 'a1b2c3d4e5f6'));
    await mkdir(join(dir, 'owners', 'app-cache'));
    await writeFile(join(dir, 'owners', 'app-cache', fileName(1_600_000_000_000, 2, 9)), 'x');
    const io = memoryIo();
    expect(await runCli(['spill', 'purge', '--dir', dir, '--yes'], io), io.err()).toBe(0);
    expect(io.out()).toContain('Deleted 125 trace(s) in 3 file(s)');
    expect((await readdir(join(dir, 'owners'))).sort()).toEqual(['README', 'a1b2c3d4e5f6', 'app-cache']);
    expect(await readdir(join(dir, 'owners', 'app-cache'))).toHaveLength(1);
    expect(await readFile(join(appDir, 'uploads', 'photo.jpg'), 'utf8')).toBe('precious');
    expect(await readdir(appDir)).toHaveLength(3);
  });

  it('deletes from corrupt/ only the files it moved there, not other entries', async () => {
    await writeFile(join(dir, 'corrupt', 'notes.txt'), 'the operator wrote this');
    await symlink(join(appDir, 'uploads', 'photo.jpg'), join(dir, 'corrupt', `2-${fileName(2, 1, 1)}`));
    const io = memoryIo();
    expect(await runCli(['spill', 'purge', '--dir', dir, '--yes'], io), io.err()).toBe(0);
    expect(await readdir(join(dir, 'corrupt'))).toEqual(['notes.txt']);
    expect(await readFile(join(appDir, 'uploads', 'photo.jpg'), 'utf8')).toBe('precious'); // the link went, not its target
  });
});
