import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DataDirInUseError, OWNER_FILE } from '../src/store/data-dir-lock.js';
import { DATABASE_FILE, openStore } from '../src/store/store.js';

const root = mkdtempSync(join(tmpdir(), 'aqm-lock-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The pid of a process that has exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
  return Number(child.stdout.toString());
}

describe('dataDir ownership', () => {
  it('refuses a second store on a dataDir a live store holds, and frees it on close', () => {
    const dataDir = join(root, 'live');
    const first = openStore({ dataDir });
    expect(() => openStore({ dataDir })).toThrow(DataDirInUseError);
    expect(() => openStore({ dataDir })).toThrow(/in use by another aqm-server \(pid \d+/);
    first.close();
    expect(existsSync(join(dataDir, OWNER_FILE))).toBe(false);
    openStore({ dataDir }).close();
  });

  it('takes over from a dead owner, removing the lock folder it left', () => {
    const dataDir = join(root, 'dead');
    mkdirSync(join(dataDir, `${DATABASE_FILE}.lock`), { recursive: true });
    writeFileSync(join(dataDir, OWNER_FILE), JSON.stringify({ pid: deadPid(), host: hostname() }));
    const store = openStore({ dataDir });
    store.applications.list('p', { page: 1, limit: 10 });
    store.close();
    expect(existsSync(join(dataDir, `${DATABASE_FILE}.lock`))).toBe(false);
  });

  it('takes over from an owner file this process left under an earlier start (pid reuse) or half-written', () => {
    const dataDir = join(root, 'reused');
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(
      join(dataDir, OWNER_FILE),
      JSON.stringify({ pid: process.pid, host: hostname(), start: '1' }),
    );
    openStore({ dataDir }).close();
    writeFileSync(join(dataDir, OWNER_FILE), '{"pid":');
    openStore({ dataDir }).close();
  });

  it('refuses when the owner file names a live process of this host', () => {
    const dataDir = join(root, 'other-live');
    mkdirSync(dataDir, { recursive: true });
    // pid 1 is always alive (init); without a start time it cannot be told from a reused pid.
    writeFileSync(join(dataDir, OWNER_FILE), JSON.stringify({ pid: 1, host: hostname() }));
    expect(() => openStore({ dataDir })).toThrow(/pid 1 on/);
  });
});
