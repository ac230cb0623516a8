import { closeSync, fsyncSync, openSync, readFileSync, rmdirSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { resolve } from 'node:path';

/** The file in `dataDir` naming the live server that owns it (pid, host, process start). */
export const OWNER_FILE = 'aqm.sqlite.owner';

/** What the owner file holds. */
interface Owner {
  pid: number;
  host: string;
  /** Linux: the process start time (clock ticks since boot), so a reused pid is not taken for the owner. */
  start?: string | undefined;
}

/** Another live server uses the data directory. */
export class DataDirInUseError extends Error {
  constructor(dataDir: string, owner: Owner, file: string) {
    super(
      `dataDir ${dataDir} is in use by another aqm-server (pid ${owner.pid} on ${owner.host}); ` +
        `stop it first, or remove ${file} if you are sure that process is gone`,
    );
    this.name = 'DataDirInUseError';
  }
}

/** A held data directory; `release` is safe to call twice. */
export interface DataDirLock {
  release(): void;
}

// Owner files held by this process: a second server in the same process is refused too.
const heldHere = new Set<string>();

/**
 * Takes ownership of `dataDir` before the database is opened. The SQLite library locks with a
 * folder (`<database>.lock`) that outlives a killed process, so it cannot tell a live owner from a
 * dead one; this file records the owner's pid, and a start finding the owner dead (SIGKILL, OOM,
 * crash) takes over and removes the dead owner's SQLite lock folder, so the server comes back by
 * itself. A live owner (checked with signal 0, and on Linux its start time, against pid reuse)
 * is refused with {@link DataDirInUseError}.
 */
export function acquireDataDirLock(dataDir: string, databaseFile: string): DataDirLock {
  const file = resolve(dataDir, OWNER_FILE);
  const me: Owner = { pid: process.pid, host: hostname(), start: startTimeOf(process.pid) };
  for (let attempt = 0; ; attempt += 1) {
    try {
      const fd = openSync(file, 'wx');
      try {
        writeSync(fd, JSON.stringify(me));
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = readOwner(file);
      // Two stale takeovers in a row mean another process is starting at the same moment.
      if (attempt >= 2 || (owner !== undefined && isAlive(owner, file))) {
        throw new DataDirInUseError(dataDir, owner ?? { pid: 0, host: 'unknown' }, file);
      }
      removeIfExists(file);
    }
  }
  heldHere.add(file);
  // No live server owns the directory now: a lock folder left there is a dead owner's.
  try {
    rmdirSync(resolve(dataDir, `${databaseFile}.lock`));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
      heldHere.delete(file);
      removeIfExists(file);
      throw error;
    }
  }
  let released = false;
  return {
    release: () => {
      if (released) return;
      released = true;
      heldHere.delete(file);
      const owner = readOwner(file);
      if (owner?.pid === me.pid && owner.start === me.start) removeIfExists(file);
    },
  };
}

function readOwner(file: string): Owner | undefined {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<Owner>;
    if (typeof parsed.pid !== 'number' || typeof parsed.host !== 'string') return undefined;
    return {
      pid: parsed.pid,
      host: parsed.host,
      start: typeof parsed.start === 'string' ? parsed.start : undefined,
    };
  } catch {
    // Unreadable or half-written: its writer died between creating and writing it.
    return undefined;
  }
}

function isAlive(owner: Owner, file: string): boolean {
  // Another machine's process cannot be checked (a shared disk): assume it lives.
  if (owner.host !== hostname()) return true;
  if (owner.pid === process.pid) {
    // This process: alive if a server here holds it; else an earlier process had this pid.
    return heldHere.has(file) && owner.start === startTimeOf(process.pid);
  }
  try {
    process.kill(owner.pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  const start = startTimeOf(owner.pid);
  return owner.start === undefined || start === undefined || start === owner.start;
}

/** Linux: field 22 of /proc/<pid>/stat (start time since boot); elsewhere undefined. */
function startTimeOf(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

function removeIfExists(file: string): void {
  try {
    unlinkSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}
