import { closeSync, constants, ftruncateSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import type { SpillRecord } from './spill-file.js';

/**
 * One file of the write-ahead log (`persistMode: 'write-ahead'`), in the spill file format with a
 * header of fixed width written last: records are appended with a synchronous `write` each (the
 * page cache keeps them when the process is killed), and a file that fills with records memory
 * could not keep becomes a spill file by writing its header and renaming it into the pool.
 *
 *     AQMSPILL1 <count, 9 digits> <payload bytes, 12 digits> <crc32 hex>\n   (zeros until sealed)
 *     <traceId>\t<record JSON>\n   ...
 *
 * Log files are named `wal-<owner id>-<n>.aqmwal` and live in their process's claim folder, so the
 * process that takes over a dead one's folder finds them (see write-ahead-recovery.ts).
 */
export const LOG_HEADER_BYTES = 42;
const PLACEHOLDER = Buffer.from(`AQMSPILL1 ${'0'.repeat(9)} ${'0'.repeat(12)} ${'0'.repeat(8)}\n`, 'latin1');
const LOG_NAME = /^wal-([0-9a-z]{1,32})-(\d{1,15})\.aqmwal$/;
const TRACE_ID = /^[0-9A-Za-z_-]{1,64}$/;
/** Flags of a new log file: never through a link, never over an existing file. */
const CREATE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);

/** The name of log file `sequence` of owner `ownerId`. */
export function logFileName(ownerId: string, sequence: number): string {
  return `wal-${ownerId}-${sequence}.aqmwal`;
}

/** The owner id in a log file's name; `undefined` for a name that is not one. */
export function logFileOwner(name: string): string | undefined {
  return LOG_NAME.exec(name)?.[1];
}

/** The header of a sealed log file: the spill header, at its fixed width. */
export function sealedHeader(count: number, payloadBytes: number, crc: number): Buffer {
  const text = `AQMSPILL1 ${String(count).padStart(9, '0')} ${String(payloadBytes).padStart(12, '0')} ${crc
    .toString(16)
    .padStart(8, '0')}\n`;
  return Buffer.from(text, 'latin1');
}

/**
 * The whole records of a log file left by a process that is gone, whatever its header says (it
 * was cut off while being written). A line without its newline was torn by the kill: its write
 * had not returned, so its trace was never accepted. A line that is not a record (what a power
 * cut can leave without `fsync`) is skipped and counted.
 */
export function decodeLogFile(data: Buffer): { records: SpillRecord[]; skipped: number } {
  const records: SpillRecord[] = [];
  let skipped = 0;
  let start = LOG_HEADER_BYTES;
  while (start < data.length) {
    const end = data.indexOf(0x0a, start);
    if (end < 0) break; // the torn last line
    const tab = data.indexOf(0x09, start);
    const traceId = tab > start && tab < end ? data.subarray(start, tab).toString('utf8') : '';
    const body = data.subarray(tab + 1, end);
    if (TRACE_ID.test(traceId) && isJsonObject(body)) records.push({ traceId, body });
    else skipped += 1;
    start = end + 1;
  }
  return { records, skipped };
}

function isJsonObject(body: Buffer): boolean {
  if (body.length < 2 || body[0] !== 0x7b || body[body.length - 1] !== 0x7d) return false;
  try {
    JSON.parse(body.toString('utf8'));
    return true;
  } catch {
    return false;
  }
}

/** One open log file: records appended at its end, the count still to be delivered, a running checksum. */
export class LogSegment {
  readonly name: string;
  readonly path: string;
  /** Its number among this process's log files. */
  readonly sequence: number;
  #fd: number | undefined;
  /** Bytes in the file, its header included. */
  size = LOG_HEADER_BYTES;
  /** Records in the file. */
  records = 0;
  /** Records not settled yet (in memory, on their way to the service). */
  live = 0;
  /** CRC-32 of the records so far (the payload of the spill file it may become). */
  crc = 0;
  /** `Date.now()` of its first record: the spill file it becomes sorts by it. */
  firstAt = 0;
  sealed = false;

  /** Creates the file with a placeholder header. Throws what the disk says. */
  constructor(dir: string, ownerId: string, sequence: number) {
    const name = logFileName(ownerId, sequence);
    this.name = name;
    this.sequence = sequence;
    this.path = join(dir, name);
    const fd = openSync(this.path, CREATE_FLAGS, 0o600);
    this.#fd = fd;
    try {
      writeAll(fd, PLACEHOLDER, PLACEHOLDER.length, 0);
    } catch (error) {
      this.close();
      throw error;
    }
  }

  get fd(): number | undefined {
    return this.#fd;
  }

  /**
   * Appends `length` bytes of `chunk` (whole record lines); on return they are in the OS's hands.
   * `checksum: false` for a file that is never sealed (records memory holds).
   */
  append(chunk: Buffer, length: number, records: number, checksum = true): void {
    if (this.#fd === undefined) throw new Error(`${this.name} is closed`);
    writeAll(this.#fd, chunk, length, this.size);
    if (this.records === 0) this.firstAt = Date.now();
    this.size += length;
    this.records += records;
    // Only a file that becomes a spill file needs it (records memory could not hold).
    if (checksum) this.crc = crc32(chunk.subarray(0, length), this.crc);
  }

  /** Empties the file back to its header (every record was delivered): one system call. */
  truncate(): void {
    if (this.#fd === undefined) return;
    ftruncateSync(this.#fd, LOG_HEADER_BYTES);
    this.size = LOG_HEADER_BYTES;
    this.records = 0;
    this.crc = 0;
  }

  close(): void {
    if (this.#fd === undefined) return;
    const fd = this.#fd;
    this.#fd = undefined;
    try {
      closeSync(fd);
    } catch {
      // closed either way
    }
  }
}

/** `write` until every byte is written (a regular file may take less than asked). */
function writeAll(fd: number, chunk: Buffer, length: number, position: number): void {
  let written = 0;
  while (written < length) {
    written += writeSync(fd, chunk, written, length - written, position + written);
  }
}
