import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import type { SpillRecord } from './spill-file.js';
import type { SpillFolder } from './spill-folder.js';
import { ownerIsGone } from './spill-owners.js';
import { errorCode, ownerFolders, readdirOrEmpty, readRegularFile } from './spill-paths.js';
import { decodeLogFile, logFileOwner } from './write-ahead-segment.js';

/** What the recovery found: traces handed to the pool, and lines that were not records. */
export interface Recovered {
  files: number;
  traces: number;
  skipped: number;
}

/**
 * Claims the write-ahead logs of processes that are gone (killed, or that could not finish at
 * shutdown): each log file is renamed into this process's claim folder (of two processes, one
 * wins), keeping its first owner's name. Runs before the gone processes' claim folders are
 * removed (their owner file tells whether they are gone; removing a folder leaves logs alone).
 */
export async function claimGoneLogs(folder: SpillFolder, now: number): Promise<void> {
  for (const owner of await ownerFolders(folder.ownersDir)) {
    if (owner === folder.id) continue;
    const ownerDir = join(folder.ownersDir, owner);
    const names = (await readdirOrEmpty(ownerDir).catch(() => [])).filter(
      (name) => logFileOwner(name) !== undefined,
    );
    if (names.length === 0 || !(await ownerIsGone(ownerDir, now))) continue;
    for (const name of names) {
      try {
        await fs.rename(join(ownerDir, name), join(folder.ownerDir, name));
      } catch (error) {
        if (errorCode(error) !== 'ENOENT') throw error; // ENOENT: another process took it
      }
    }
  }
}

/**
 * Writes the whole records of the log files this process claimed as spill files (`write`, the
 * spill writer) and deletes each once they are on disk. One the disk refused stays in the claim
 * folder and is tried again at the next scan.
 */
export async function sendClaimedLogs(
  folder: SpillFolder,
  write: (records: readonly SpillRecord[]) => Promise<boolean>,
  maxBytes: number,
): Promise<Recovered> {
  const recovered: Recovered = { files: 0, traces: 0, skipped: 0 };
  for (const name of await readdirOrEmpty(folder.ownerDir)) {
    const writer = logFileOwner(name);
    if (writer === undefined || writer === folder.id) continue; // not a log, or this process's own
    const claimed = join(folder.ownerDir, name);
    const { records, skipped } = decodeLogFile(await readRegularFile(claimed, maxBytes));
    if (records.length > 0 && !(await write(records))) continue;
    await fs.rm(claimed, { force: true });
    recovered.files += 1;
    recovered.traces += records.length;
    recovered.skipped += skipped;
  }
  return recovered;
}
