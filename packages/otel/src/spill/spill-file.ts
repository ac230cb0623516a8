import { crc32 } from 'node:zlib';

/**
 * The format of one spill file: the records of one batch, already serialised, behind a header
 * that lets a reader tell a whole file from a torn or foreign one.
 *
 *     AQMSPILL1 <count> <payload bytes> <crc32 hex>\n
 *     <traceId>\t<record JSON>\n   (count lines; JSON.stringify never writes a raw newline)
 *
 * The file's name carries its time, its trace count and its size, so a folder's backlog is known
 * from one `readdir` without opening a file.
 */
const MAGIC = 'AQMSPILL1';
const HEADER = /^AQMSPILL1 (\d{1,9}) (\d{1,12}) ([0-9a-f]{8})$/;
const NAME = /^(\d{15})-([0-9a-z]{1,32})-(\d{1,12})\.n(\d{1,9})\.b(\d{1,12})\.aqmspill$/;
/** The suffix of a finished spill file; anything else in the folder is a temp file or not ours. */
export const SPILL_SUFFIX = '.aqmspill';

/** One record in a spill file. */
export interface SpillRecord {
  traceId: string;
  /** The record's JSON, UTF-8. */
  body: Buffer;
}

/** What a spill file's name says about it. */
export interface SpillFileName {
  name: string;
  /** `Date.now()` when it was written (or when its oldest record first went to disk). */
  writtenAt: number;
  traces: number;
  bytes: number;
}

/** The name of a new spill file: sorts oldest first. */
export function spillFileName(
  writtenAt: number,
  writer: string,
  sequence: number,
  traces: number,
  bytes: number,
): string {
  return `${String(writtenAt).padStart(15, '0')}-${writer}-${sequence}.n${traces}.b${bytes}${SPILL_SUFFIX}`;
}

/** Parses a spill file's name; `undefined` for a name that is not one. */
export function parseSpillFileName(name: string): SpillFileName | undefined {
  const match = NAME.exec(name);
  if (match === null) return undefined;
  return { name, writtenAt: Number(match[1]), traces: Number(match[4]), bytes: Number(match[5]) };
}

/** The header of a spill file whose record lines are `payload`. */
export function spillHeader(count: number, payload: Buffer): Buffer {
  const checksum = crc32(payload).toString(16).padStart(8, '0');
  return Buffer.from(`${MAGIC} ${count} ${payload.length} ${checksum}\n`, 'latin1');
}

/** A record's line prefix: its trace id (hex from the SDK; what could break the line is removed) and a tab. */
export function linePrefix(traceId: string): string {
  return `${traceId.replace(/[\t\r\n]/g, '')}\t`;
}

/** The bytes of a spill file holding `records`, as the pieces to write in order. */
export function encodeSpillFile(records: readonly SpillRecord[]): Buffer[] {
  const parts: Buffer[] = [];
  for (const record of records)
    parts.push(Buffer.from(linePrefix(record.traceId), 'utf8'), record.body, NEWLINE);
  const payload = Buffer.concat(parts);
  return [spillHeader(records.length, payload), payload];
}

const NEWLINE = Buffer.from('\n');

/**
 * The records of a spill file, or a reason it cannot be read (torn by a crash, changed, or of
 * another version). The record bodies share the file's memory.
 */
export function decodeSpillFile(data: Buffer): { records: SpillRecord[] } | { problem: string } {
  const headerEnd = data.indexOf(0x0a);
  if (headerEnd < 0 || headerEnd > 64) return { problem: 'no header (not a spill file, or torn)' };
  const header = data.subarray(0, headerEnd).toString('latin1');
  if (!header.startsWith(`${MAGIC} `)) {
    return header.startsWith('AQMSPILL')
      ? { problem: `unknown format version ${JSON.stringify(header.split(' ')[0])}` }
      : { problem: 'not a spill file' };
  }
  const match = HEADER.exec(header);
  if (match === null) return { problem: 'malformed header' };
  const count = Number(match[1]);
  const payload = data.subarray(headerEnd + 1);
  if (payload.length !== Number(match[2])) {
    return { problem: `${payload.length} bytes of records where the header says ${match[2]} (torn)` };
  }
  if (crc32(payload).toString(16).padStart(8, '0') !== match[3]) return { problem: 'checksum mismatch' };
  const records: SpillRecord[] = [];
  let start = 0;
  while (start < payload.length) {
    const end = payload.indexOf(0x0a, start);
    const tab = payload.indexOf(0x09, start);
    if (end < 0 || tab < 0 || tab > end) return { problem: 'malformed record line' };
    records.push({
      traceId: payload.subarray(start, tab).toString('utf8'),
      body: payload.subarray(tab + 1, end),
    });
    start = end + 1;
  }
  if (records.length !== count)
    return { problem: `${records.length} records where the header says ${count}` };
  return { records };
}
