import { constants, promises as fs, type Stats } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseSpillFileName, SPILL_SUFFIX } from './spill-file.js';

/**
 * The spill folder's own names, and file operations that touch nothing else: an `owners/` or
 * `corrupt/` that is a link, an entry the folder did not create, a FIFO or a device are never
 * followed, opened for a blocking read, emptied or deleted.
 */

const DIR_MODE = 0o700;
/** A claim folder's name: the owner's pid in base 36 and 8 random hex digits (`SpillFolder.id`). */
const OWNER_ID = /^[0-9a-z]{1,13}[0-9a-f]{8}$/;
/** A file moved to `corrupt/`: `<Date.now()>-<its name>`, the name ending in `.aqmspill`. */
const CORRUPT_PREFIX = /^\d{1,15}-/;
/** A temp file of a write in progress (`tmp-<n>`) or of a heartbeat (`owner.json.tmp`). */
const TEMP_NAME = /^tmp-\d{1,15}$/;
export const OWNER_FILE = 'owner.json';
export const OWNER_TEMP = 'owner.json.tmp';

/** Flags of a read that follows links: no wait on a FIFO or device (`?? 0`: not on Windows). */
const READ_FLAGS_FOLLOWING_LINKS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);
/** Flags of every other read: the same, and no link followed. */
const READ_FLAGS = READ_FLAGS_FOLLOWING_LINKS | (constants.O_NOFOLLOW ?? 0);

/**
 * Why a folder is not used as a spill folder: one of its parts (`owners/`, `corrupt/`, a claim
 * folder) is a link or not a folder. It does not go away by retrying, unlike a disk that refuses writes.
 */
export class SpillFolderRefused extends Error {
  override name = 'SpillFolderRefused';
  readonly dir: string;
  readonly reason: string;

  constructor(dir: string, reason: string) {
    super(`${dir} is not used as a spill folder: ${reason}`);
    this.dir = dir;
    this.reason = reason;
  }
}

export function isOwnerId(name: string): boolean {
  return OWNER_ID.test(name);
}

export function isCorruptName(name: string): boolean {
  return CORRUPT_PREFIX.test(name) && name.endsWith(SPILL_SUFFIX);
}

/** Whether a claim folder may hold `name`: its owner file, a temp file, or a spill file. */
export function isOwnerFolderName(name: string): boolean {
  return (
    name === OWNER_FILE ||
    name === OWNER_TEMP ||
    TEMP_NAME.test(name) ||
    parseSpillFileName(name) !== undefined
  );
}

export function errorCode(error: unknown): string | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** `lstat`, or `undefined` when nothing is there. */
export async function lstatOrNone(path: string): Promise<Stats | undefined> {
  try {
    return await fs.lstat(path);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return undefined;
    throw error;
  }
}

function kindOf(stat: Stats): string {
  if (stat.isSymbolicLink()) return 'a symbolic link';
  if (stat.isFIFO()) return 'a FIFO';
  if (stat.isSocket()) return 'a socket';
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'a device';
  if (stat.isDirectory()) return 'a folder';
  return 'a file';
}

/**
 * Creates `path` (and its missing parents) owner-only. One `mkdir` per level, so the error is the
 * disk's own: `mkdir(..., { recursive: true })` answers ENOENT where the disk said EROFS or EACCES.
 */
export async function makeFolder(path: string): Promise<void> {
  try {
    await fs.mkdir(path, { mode: DIR_MODE });
    return;
  } catch (error) {
    const code = errorCode(error);
    if (code === 'EEXIST') return; // what it is, the caller checks
    if (code !== 'ENOENT' || dirname(path) === path) throw error;
  }
  await makeFolder(dirname(path));
  try {
    await fs.mkdir(path, { mode: DIR_MODE });
  } catch (error) {
    if (errorCode(error) !== 'EEXIST') throw error;
  }
}

/**
 * Rejects with {@link SpillFolderRefused} unless `path` is a folder itself, not a link to one
 * (`what` names it in the message). With `optional`, nothing there is fine too.
 */
export async function expectOwnFolder(
  dir: string,
  path: string,
  what: string,
  optional = false,
): Promise<void> {
  const stat = await lstatOrNone(path);
  if (stat === undefined) {
    if (optional) return;
    throw Object.assign(new Error(`${path} disappeared`), { code: 'ENOENT' });
  }
  if (stat.isDirectory()) return;
  const target = stat.isSymbolicLink() ? await fs.readlink(path).catch(() => '?') : undefined;
  throw new SpillFolderRefused(
    dir,
    `${what} is ${kindOf(stat)}${target === undefined ? '' : ` (to ${target})`}, not a folder it created; ` +
      'it only ever touches what it created itself, so it uses no folder whose parts are links or files',
  );
}

/** An error with `code`, like the ones `fs` rejects with. */
function codedError(code: string, message: string): NodeJS.ErrnoException {
  return Object.assign(new Error(message), { code });
}

/**
 * Reads a regular file of at most `maxBytes`. A link is not followed (ELOOP) unless `followLinks`
 * (a file named by the user, such as a Kubernetes Secret's, which is a link), and a FIFO or device
 * is opened non-blocking and refused (code ENOTREG) without reading: a read of a FIFO would wait
 * for a writer forever, holding a thread of the pool and, with it, the process's exit.
 */
export async function readRegularFile(
  path: string,
  maxBytes: number,
  { followLinks = false }: { followLinks?: boolean } = {},
): Promise<Buffer> {
  const handle = await fs.open(path, followLinks ? READ_FLAGS_FOLLOWING_LINKS : READ_FLAGS);
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw codedError('ENOTREG', `${kindOf(stat)}, not a regular file`);
    if (stat.size > maxBytes)
      throw codedError('EFBIG', `${stat.size} bytes, more than the ${maxBytes} expected`);
    const data = Buffer.allocUnsafe(stat.size);
    let length = 0;
    while (length < data.length) {
      const { bytesRead } = await handle.read(data, length, data.length - length, length);
      if (bytesRead === 0) break; // shortened meanwhile: what is there is judged by its header
      length += bytesRead;
    }
    return data.subarray(0, length);
  } finally {
    await handle.close().catch(() => {});
  }
}

/** `readdir`, or nothing when the folder is not there. */
export async function readdirOrEmpty(dir: string): Promise<string[]> {
  try {
    return await fs.readdir(dir);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return [];
    throw error;
  }
}

/** The claim folders under `ownersDir` that the spill folder created: its names, real folders, no links. */
export async function ownerFolders(ownersDir: string): Promise<string[]> {
  const ids: string[] = [];
  for (const name of await readdirOrEmpty(ownersDir)) {
    if (!isOwnerId(name)) continue;
    const stat = await lstatOrNone(join(ownersDir, name)).catch(() => undefined);
    if (stat?.isDirectory()) ids.push(name);
  }
  return ids;
}

/**
 * Removes a claim folder: only the files the spill folder puts there (a link among them is removed,
 * never followed), then the folder if that emptied it. Anything else keeps it, untouched.
 */
export async function removeOwnerFolder(ownerDir: string): Promise<void> {
  for (const name of await readdirOrEmpty(ownerDir).catch(() => [])) {
    if (!isOwnerFolderName(name)) continue;
    await fs.unlink(join(ownerDir, name)).catch(() => {}); // a folder of that name: left alone
  }
  await fs.rmdir(ownerDir).catch(() => {});
}

/** Renames every spill file of `ownerDir` into `poolDir`; returns how many. */
export async function returnFilesOf(ownerDir: string, poolDir: string): Promise<number> {
  let moved = 0;
  for (const name of await readdirOrEmpty(ownerDir).catch(() => [])) {
    if (parseSpillFileName(name) === undefined) continue;
    try {
      await fs.rename(join(ownerDir, name), join(poolDir, name));
      moved += 1;
    } catch {
      // Taken by another process at the same moment, or gone: either way not ours to return.
    }
  }
  return moved;
}

/**
 * Makes a folder's entries durable, as far as the platform allows. Best effort: the file is
 * already renamed into place, so a folder that cannot be opened or synced (Windows; some network
 * file systems answer EINVAL) must not turn a written file into a failed write, which would send
 * its records twice.
 */
export async function syncFolder(dir: string): Promise<void> {
  const handle = await fs.open(dir, 'r').catch(() => undefined);
  if (handle === undefined) return;
  await handle.sync().catch(() => {});
  await handle.close().catch(() => {});
}

/** Why a claimed file could not be read, for the quarantine message. */
export function unreadable(error: unknown): string {
  const code = errorCode(error);
  if (code === 'ELOOP') return 'a symbolic link, not followed';
  if (code === 'ENOTREG' || code === 'EFBIG') return (error as Error).message;
  return `unreadable (${code ?? String(error)})`;
}
