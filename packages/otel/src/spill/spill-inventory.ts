import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { parseSpillFileName } from './spill-file.js';
import { ownerIsGone, readOwner } from './spill-owners.js';
import {
  errorCode,
  expectOwnFolder,
  isCorruptName,
  lstatOrNone,
  ownerFolders,
  readdirOrEmpty,
  removeOwnerFolder,
  SpillFolderRefused,
} from './spill-paths.js';
import { logFileOwner } from './write-ahead-segment.js';

/** Files, traces and bytes of a set of spill files. */
export interface SpillTotals {
  files: number;
  traces: number;
  bytes: number;
}

/** Files and bytes of write-ahead logs (`persistMode: 'write-ahead'`): their traces are counted when replayed. */
export interface WriteAheadTotals {
  files: number;
  bytes: number;
}

/** One process's claim folder in a spill folder. */
export interface SpillOwnerReport extends SpillTotals {
  id: string;
  /** Its write-ahead logs: traces handed over and not yet accepted by the service (or not yet emptied). */
  logs: WriteAheadTotals;
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
 * Rejects with {@link SpillFolderRefused} when `dir` is not a folder, or its `owners/` or `corrupt/`
 * is a link or a file: nothing is read or deleted through them. `false` when `dir` does not exist.
 */
async function checkFolder(dir: string): Promise<boolean> {
  let stat: Awaited<ReturnType<typeof fs.stat>>;
  try {
    stat = await fs.stat(dir); // the folder itself may be a link: the user named it
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return false;
    throw error;
  }
  if (!stat.isDirectory()) throw new SpillFolderRefused(dir, 'it is not a folder');
  await expectOwnFolder(dir, join(dir, 'owners'), 'owners/', true);
  await expectOwnFolder(dir, join(dir, 'corrupt'), 'corrupt/', true);
  return true;
}

/**
 * What a `persistDir` folder holds, from file names only (nothing is opened but owner files).
 * Entries of `owners/` and `corrupt/` that the spill folder did not create (other names, links,
 * files) are not counted; a folder whose `owners/` or `corrupt/` is a link or a file rejects with
 * {@link SpillFolderRefused}.
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
  if (!(await checkFolder(dir))) return { ...report, exists: false };
  const names = await fs.readdir(dir);
  const count = (totals: SpillTotals, name: string) => {
    const file = parseSpillFileName(name);
    if (file === undefined) return;
    totals.files += 1;
    totals.traces += file.traces;
    totals.bytes += file.bytes;
    report.oldestWrittenAt = Math.min(report.oldestWrittenAt ?? file.writtenAt, file.writtenAt);
  };
  for (const name of names) count(report.waiting, name);
  for (const id of await ownerFolders(join(dir, 'owners'))) {
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
      logs: { files: 0, bytes: 0 },
    };
    for (const name of await readdirOrEmpty(ownerDir)) {
      count(entry, name);
      if (logFileOwner(name) === undefined) continue;
      const stat = await lstatOrNone(join(ownerDir, name)).catch(() => undefined);
      if (stat === undefined || !stat.isFile()) continue; // a link or a folder of that name is not one
      entry.logs.files += 1;
      entry.logs.bytes += stat.size;
    }
    report.owners.push(entry);
  }
  for (const name of await readdirOrEmpty(join(dir, 'corrupt'))) {
    if (!isCorruptName(name)) continue;
    const stat = await lstatOrNone(join(dir, 'corrupt', name)).catch(() => undefined);
    if (stat === undefined || stat.isDirectory()) continue;
    report.corrupt.files += 1;
    report.corrupt.bytes += stat.size;
  }
  return report;
}

/** Deletes a write-ahead log of a process that is gone (a link is not one: left alone). */
async function removeLog(path: string, totals: WriteAheadTotals): Promise<void> {
  const stat = await lstatOrNone(path);
  if (stat === undefined || !stat.isFile()) return;
  try {
    await fs.unlink(path);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return; // taken over meanwhile
    throw error;
  }
  totals.files += 1;
  totals.bytes += stat.size;
}

/** What {@link purgeSpillFolder} deleted, and what it left to live processes. */
export interface SpillPurgeResult {
  deleted: SpillTotals;
  /** Write-ahead logs of processes that are gone, deleted (their traces were never counted). */
  logsDeleted: WriteAheadTotals;
  /** Files a live process is sending: left alone. */
  leftToLiveProcesses: SpillTotals;
  /** Files deleted from `corrupt/`. */
  corruptDeleted: number;
}

/**
 * Empties a `persistDir` folder: the files waiting, those of processes that are gone (spill files
 * and write-ahead logs), and `corrupt/`. A live process's claimed files are left (it is sending them). Only what the spill
 * folder created is touched (spill files, its claim folders, the files it moved to `corrupt/`),
 * never other files, and no link is followed: a folder whose `owners/` or `corrupt/` is a link or a
 * file rejects with {@link SpillFolderRefused} before anything is deleted.
 *
 * @example
 * const { deleted } = await purgeSpillFolder('/var/lib/my-app/aqm');
 */
export async function purgeSpillFolder(dir: string, now = Date.now()): Promise<SpillPurgeResult> {
  const result: SpillPurgeResult = {
    deleted: { files: 0, traces: 0, bytes: 0 },
    logsDeleted: { files: 0, bytes: 0 },
    leftToLiveProcesses: { files: 0, traces: 0, bytes: 0 },
    corruptDeleted: 0,
  };
  if (!(await checkFolder(dir))) return result;
  const remove = async (folder: string, name: string, totals: SpillTotals) => {
    const file = parseSpillFileName(name);
    if (file === undefined) return;
    // A folder of that name is not one of its files (unlink would not take it anyway).
    if ((await lstatOrNone(join(folder, name)))?.isDirectory() !== false) return;
    try {
      await fs.unlink(join(folder, name));
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return; // claimed meanwhile
      throw error;
    }
    totals.files += 1;
    totals.traces += file.traces;
    totals.bytes += file.bytes;
  };
  for (const name of await readdirOrEmpty(dir)) await remove(dir, name, result.deleted);
  for (const id of await ownerFolders(join(dir, 'owners'))) {
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
    for (const name of names) {
      await remove(ownerDir, name, result.deleted);
      if (logFileOwner(name) !== undefined) await removeLog(join(ownerDir, name), result.logsDeleted);
    }
    await removeOwnerFolder(ownerDir);
  }
  for (const name of await readdirOrEmpty(join(dir, 'corrupt'))) {
    if (!isCorruptName(name)) continue;
    try {
      await fs.unlink(join(dir, 'corrupt', name)); // a link goes, not what it points to
      result.corruptDeleted += 1;
    } catch (error) {
      if (errorCode(error) !== 'ENOENT' && errorCode(error) !== 'EISDIR' && errorCode(error) !== 'EPERM')
        throw error;
    }
  }
  return result;
}
