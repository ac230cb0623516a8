import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { parseSpillFileName, SPILL_SUFFIX } from './spill-file.js';
import { OWNER_FILE, type OwnerInfo, ownerIsGone } from './spill-owners.js';

/** Files, traces and bytes of a set of spill files. */
export interface SpillTotals {
  files: number;
  traces: number;
  bytes: number;
}

/** One process's claim folder in a spill folder. */
export interface SpillOwnerReport extends SpillTotals {
  id: string;
  pid: number | undefined;
  host: string | undefined;
  /** False when its process is gone: the next process using the folder takes its files over. */
  alive: boolean;
}

/** What {@link inspectSpillFolder} finds. */
export interface SpillFolderReport {
  dir: string;
  /** Whether the folder exists at all. */
  exists: boolean;
  /** Files waiting to be sent. */
  waiting: SpillTotals;
  /** Files claimed by a process (being sent, or left by one that is gone). */
  owners: SpillOwnerReport[];
  /** Files that could not be read, kept for a look (`corrupt/`). */
  corrupt: { files: number; bytes: number };
  /** `Date.now()` when the oldest spill file was written; `undefined` when there is none. */
  oldestWrittenAt: number | undefined;
}

/**
 * What a `persistDir` folder holds, from file names only (nothing is opened but owner files).
 *
 * @example
 * const report = await inspectSpillFolder('/var/lib/my-app/aqm');
 * console.log(report.waiting.traces);
 */
export async function inspectSpillFolder(dir: string, now = Date.now()): Promise<SpillFolderReport> {
  const report: SpillFolderReport = {
    dir,
    exists: true,
    waiting: { files: 0, traces: 0, bytes: 0 },
    owners: [],
    corrupt: { files: 0, bytes: 0 },
    oldestWrittenAt: undefined,
  };
  let names: string[];
  try {
    names = await fs.readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { ...report, exists: false };
    throw error;
  }
  const count = (totals: SpillTotals, name: string) => {
    const file = parseSpillFileName(name);
    if (file === undefined) return;
    totals.files += 1;
    totals.traces += file.traces;
    totals.bytes += file.bytes;
    report.oldestWrittenAt = Math.min(report.oldestWrittenAt ?? file.writtenAt, file.writtenAt);
  };
  for (const name of names) count(report.waiting, name);
  for (const id of await readdirOrEmpty(join(dir, 'owners'))) {
    const ownerDir = join(dir, 'owners', id);
    const owner = await readOwner(ownerDir);
    const entry: SpillOwnerReport = {
      id,
      pid: owner?.pid,
      host: owner?.host,
      alive: !(await ownerIsGone(ownerDir, now)),
      files: 0,
      traces: 0,
      bytes: 0,
    };
    for (const name of await readdirOrEmpty(ownerDir)) count(entry, name);
    report.owners.push(entry);
  }
  for (const name of await readdirOrEmpty(join(dir, 'corrupt'))) {
    const stat = await fs.stat(join(dir, 'corrupt', name)).catch(() => undefined);
    if (stat === undefined) continue;
    report.corrupt.files += 1;
    report.corrupt.bytes += stat.size;
  }
  return report;
}

/** What {@link purgeSpillFolder} deleted, and what it left to live processes. */
export interface SpillPurgeResult {
  deleted: SpillTotals;
  /** Files a live process is sending: left alone. */
  leftToLiveProcesses: SpillTotals;
  /** Files deleted from `corrupt/`. */
  corruptDeleted: number;
}

/**
 * Empties a `persistDir` folder: the files waiting, those of processes that are gone, and
 * `corrupt/`. A live process's claimed files are left (it is sending them). Only spill files and
 * the folder's own sub-folders are touched, never other files.
 *
 * @example
 * const { deleted } = await purgeSpillFolder('/var/lib/my-app/aqm');
 */
export async function purgeSpillFolder(dir: string, now = Date.now()): Promise<SpillPurgeResult> {
  const result: SpillPurgeResult = {
    deleted: { files: 0, traces: 0, bytes: 0 },
    leftToLiveProcesses: { files: 0, traces: 0, bytes: 0 },
    corruptDeleted: 0,
  };
  const remove = async (folder: string, name: string, totals: SpillTotals) => {
    const file = parseSpillFileName(name);
    if (file === undefined) return;
    try {
      await fs.unlink(join(folder, name));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return; // claimed meanwhile
      throw error;
    }
    totals.files += 1;
    totals.traces += file.traces;
    totals.bytes += file.bytes;
  };
  for (const name of await readdirOrEmpty(dir)) await remove(dir, name, result.deleted);
  for (const id of await readdirOrEmpty(join(dir, 'owners'))) {
    const ownerDir = join(dir, 'owners', id);
    const names = await readdirOrEmpty(ownerDir);
    if (!(await ownerIsGone(ownerDir, now))) {
      for (const name of names) {
        const file = parseSpillFileName(name);
        if (file === undefined) continue;
        result.leftToLiveProcesses.files += 1;
        result.leftToLiveProcesses.traces += file.traces;
        result.leftToLiveProcesses.bytes += file.bytes;
      }
      continue;
    }
    for (const name of names) await remove(ownerDir, name, result.deleted);
    await fs.rm(ownerDir, { recursive: true, force: true });
  }
  for (const name of await readdirOrEmpty(join(dir, 'corrupt'))) {
    if (!name.endsWith(SPILL_SUFFIX)) continue;
    await fs.rm(join(dir, 'corrupt', name), { force: true });
    result.corruptDeleted += 1;
  }
  return result;
}

async function readdirOrEmpty(dir: string): Promise<string[]> {
  try {
    return await fs.readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

async function readOwner(ownerDir: string): Promise<Partial<OwnerInfo> | undefined> {
  try {
    return JSON.parse(await fs.readFile(join(ownerDir, OWNER_FILE), 'utf8')) as Partial<OwnerInfo>;
  } catch {
    return undefined;
  }
}
