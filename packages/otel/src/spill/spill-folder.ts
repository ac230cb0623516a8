import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { decodeSpillFile, parseSpillFileName, SPILL_SUFFIX, type SpillFileName } from './spill-file.js';
import { liveOwnerIds, OwnerWatch, ownerIsGone, ownerRecord } from './spill-owners.js';
import {
  errorCode,
  expectOwnFolder,
  isCorruptName,
  makeFolder,
  OWNER_FILE,
  OWNER_TEMP,
  ownerFolders,
  readRegularFile,
  removeOwnerFolder,
  returnFilesOf,
  SpillFolderRefused,
  syncFolder,
  unreadable,
} from './spill-paths.js';

/** Files kept in `corrupt/`; older ones are deleted (they are there for a human to look at). */
export const MAX_CORRUPT_FILES = 20;
const FILE_MODE = 0o600;

/** What a listing of the folder found. */
export interface PoolListing {
  /** Files waiting to be sent, oldest first. */
  files: SpillFileName[];
  /** Names ending in `.aqmspill` that are not ours to parse (moved to `corrupt/`). */
  unknown: string[];
}

/**
 * The layout of a spill folder and the file operations on it, each one atomic where it matters:
 *
 *     <dir>/*.aqmspill        batches waiting to be sent (any process may claim one)
 *     <dir>/owners/<id>/      one per live process: owner.json (heartbeat), temp files while
 *                             writing, and the files it claimed for sending
 *     <dir>/corrupt/          files that could not be read, at most MAX_CORRUPT_FILES
 *
 * A claim is a `rename` from the pool into the owner's folder: of two processes, one wins. A new
 * file is written under a temp name in the owner's folder, fsync'd, then renamed into the pool.
 * Only what the folder created is ever touched: `owners/`, `corrupt/` and claim folders that are
 * links or files make it refuse the folder ({@link SpillFolderRefused}), entries of `owners/` and
 * `corrupt/` not named as it names them are left alone, and no link is followed.
 */
export class SpillFolder {
  readonly dir: string;
  readonly ownersDir: string;
  readonly corruptDir: string;
  /** This process's id in the folder; also the writer tag in file names. */
  readonly id: string;
  readonly ownerDir: string;
  #tempSequence = 0;
  #beat = 0;
  readonly #startedAt = Date.now();
  /** Other hosts' heartbeats, as this process saw them advance. */
  readonly #watch: OwnerWatch;

  constructor(dir: string, watch = new OwnerWatch()) {
    this.dir = dir;
    this.#watch = watch;
    this.ownersDir = join(dir, 'owners');
    this.corruptDir = join(dir, 'corrupt');
    this.id = `${process.pid.toString(36)}${randomBytes(4).toString('hex')}`;
    this.ownerDir = join(this.ownersDir, this.id);
  }

  /**
   * Creates the folders (owner-only) and this process's owner file. Rejects when the disk refuses
   * (with the disk's own error code), and with {@link SpillFolderRefused} when a part is a link.
   */
  async open(): Promise<void> {
    await makeFolder(this.dir);
    await this.checkParts();
    await makeFolder(this.ownersDir);
    await expectOwnFolder(this.dir, this.ownersDir, 'owners/');
    await makeFolder(this.ownerDir);
    await expectOwnFolder(this.dir, this.ownerDir, `owners/${this.id}/`);
    liveOwnerIds().add(this.id);
    await this.#writeOwner();
  }

  /** Rejects with {@link SpillFolderRefused} when `owners/` or `corrupt/` is a link or a file. */
  async checkParts(): Promise<void> {
    const stat = await fs.stat(this.dir); // the folder itself may be a link: the user named it
    if (!stat.isDirectory()) throw new SpillFolderRefused(this.dir, 'it is not a folder');
    await expectOwnFolder(this.dir, this.ownersDir, 'owners/', true);
    await expectOwnFolder(this.dir, this.corruptDir, 'corrupt/', true);
  }

  /**
   * Rewrites the owner file with the next heartbeat sequence, so other processes see this one is
   * alive. A claim folder removed meanwhile (by hand, or by a process misjudging this one) is made again.
   */
  async heartbeat(): Promise<void> {
    try {
      await this.#writeOwner();
    } catch (error) {
      if (errorCode(error) !== 'ENOENT') throw error;
      await this.open();
    }
  }

  /** Writes the owner file whole (temp file, rename): a reader never sees half of one. */
  async #writeOwner(): Promise<void> {
    this.#beat += 1;
    const temp = join(this.ownerDir, OWNER_TEMP);
    await fs.unlink(temp).catch(() => {}); // left by a heartbeat cut short
    await fs.writeFile(temp, JSON.stringify(ownerRecord(this.#startedAt, this.#beat)), {
      mode: FILE_MODE,
      flag: 'wx',
    });
    await fs.rename(temp, join(this.ownerDir, OWNER_FILE));
  }

  /**
   * Writes `data` as pool file `name`: temp file, fsync, rename, fsync of the pool folder (the
   * rename is an entry of the folder: without it, a power cut can lose a file reported as on disk).
   * A crash leaves a whole file or none (a temp file in this owner's folder, removed when the
   * folder is taken over).
   */
  async writeAtomic(name: string, data: readonly Buffer[]): Promise<void> {
    this.#tempSequence += 1;
    const temp = join(this.ownerDir, `tmp-${this.#tempSequence}`);
    // 'wx': never through a link or into a FIFO someone put at the temp name.
    const handle = await fs.open(temp, 'wx', FILE_MODE);
    try {
      let pieces = data;
      let written = 0;
      const total = data.reduce((sum, part) => sum + part.length, 0);
      // writev takes at most IOV_MAX (1024) pieces at a time, and may write less than asked.
      for (let index = 0; written < total; ) {
        const { bytesWritten } = await handle.writev(pieces.slice(index, index + 1024));
        written += bytesWritten;
        let skipped = bytesWritten;
        while (index < pieces.length && skipped >= (pieces[index] as Buffer).length) {
          skipped -= (pieces[index] as Buffer).length;
          index += 1;
        }
        if (skipped > 0) {
          pieces = [(pieces[index] as Buffer).subarray(skipped), ...pieces.slice(index + 1)];
          index = 0;
        }
      }
      await handle.sync();
    } catch (error) {
      await handle.close().catch(() => {});
      await fs.rm(temp, { force: true }).catch(() => {});
      throw error;
    }
    await handle.close();
    try {
      await fs.rename(temp, join(this.dir, name));
    } catch (error) {
      await fs.rm(temp, { force: true }).catch(() => {});
      throw error;
    }
    await syncFolder(this.dir);
  }

  /** The pool's files, oldest first, and the `.aqmspill` names that are not ours. */
  async listPool(): Promise<PoolListing> {
    const entries = await fs.readdir(this.dir, { withFileTypes: true });
    const files: SpillFileName[] = [];
    const unknown: string[] = [];
    for (const entry of entries) {
      const name = entry.name;
      // A user's file, our folders, or a folder of any name (it never makes one there): not ours to touch.
      if (!name.endsWith(SPILL_SUFFIX) || entry.isDirectory()) continue;
      const parsed = parseSpillFileName(name);
      if (parsed === undefined) unknown.push(name);
      else files.push(parsed);
    }
    files.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return { files, unknown };
  }

  /** Claims a pool file for this process; false when another process took it first. */
  async claim(name: string): Promise<boolean> {
    try {
      await fs.rename(join(this.dir, name), join(this.ownerDir, name));
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw error;
    }
  }

  /**
   * The records of a claimed file, or why it cannot be read: only a regular file of at most the
   * bytes its name says is read (a link is not followed; a FIFO, device or folder is never waited on).
   */
  async readClaimed(file: SpillFileName): Promise<ReturnType<typeof decodeSpillFile>> {
    try {
      return decodeSpillFile(await readRegularFile(join(this.ownerDir, file.name), file.bytes));
    } catch (error) {
      return { problem: unreadable(error) };
    }
  }

  /** Deletes a claimed file (its records were accepted). */
  async removeClaimed(name: string): Promise<void> {
    await fs.rm(join(this.ownerDir, name), { force: true });
  }

  /** Puts a claimed file back in the pool, for this or another process to send later. */
  async release(name: string): Promise<void> {
    await fs.rename(join(this.ownerDir, name), join(this.dir, name));
  }

  /** Deletes a pool file (evicted at `maxDiskBytes`); false when another process claimed it first. */
  async removeFromPool(name: string): Promise<boolean> {
    try {
      await fs.unlink(join(this.dir, name));
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw error;
    }
  }

  /** Moves a file that cannot be read into `corrupt/`, keeping that folder bounded. */
  async quarantine(path: string, name: string): Promise<void> {
    await makeFolder(this.corruptDir);
    await expectOwnFolder(this.dir, this.corruptDir, 'corrupt/');
    await fs.rename(path, join(this.corruptDir, `${Date.now()}-${name}`));
    // Only the files it moved there count and go: whatever else is in corrupt/ is not its to delete.
    const kept = (await fs.readdir(this.corruptDir)).filter(isCorruptName).sort();
    for (const old of kept.slice(0, Math.max(0, kept.length - MAX_CORRUPT_FILES))) {
      await fs.unlink(join(this.corruptDir, old)).catch(() => {});
    }
  }

  /** Path of a pool file, or of a file in this owner's folder. */
  poolPath(name: string): string {
    return join(this.dir, name);
  }

  claimedPath(name: string): string {
    return join(this.ownerDir, name);
  }

  /**
   * Moves the files of processes that are gone back into the pool and removes their folders
   * (and their temp files: a write a crash cut short). Returns how many files came back.
   */
  async takeOverGone(now: number): Promise<number> {
    await this.checkParts();
    const owners = await ownerFolders(this.ownersDir);
    this.#watch.retain(new Set(owners));
    let moved = 0;
    for (const owner of owners) {
      if (owner === this.id) continue;
      const ownerDir = join(this.ownersDir, owner);
      if (!(await ownerIsGone(ownerDir, now, this.#watch))) continue;
      moved += await returnFilesOf(ownerDir, this.dir);
      await removeOwnerFolder(ownerDir);
    }
    return moved;
  }

  /** Returns this process's claimed files to the pool and removes its folder. */
  async close(): Promise<void> {
    liveOwnerIds().delete(this.id);
    await returnFilesOf(this.ownerDir, this.dir);
    await removeOwnerFolder(this.ownerDir);
  }
}

/** The spill files in other processes' claim folders (being sent, or left by one that died). */
export async function filesOfOthers(folder: SpillFolder): Promise<SpillFileName[]> {
  const files: SpillFileName[] = [];
  for (const owner of await ownerFolders(folder.ownersDir).catch(() => [])) {
    if (owner === folder.id) continue;
    try {
      for (const name of await fs.readdir(join(folder.ownersDir, owner))) {
        const parsed = parseSpillFileName(name);
        if (parsed !== undefined) files.push(parsed);
      }
    } catch {
      // removed meanwhile
    }
  }
  return files;
}
