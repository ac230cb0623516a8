import { crc32 } from 'node:zlib';
import type { OtlpFormat, OtlpSignal } from './otlp/otlp-codec.js';

/** A log file past this size is replaced by a new one (the old one goes once its traces are done). */
export const SEGMENT_BYTES = 16 * 1024 * 1024;
/**
 * The format of a request log file (`persistMode: 'write-ahead'`): the bodies of the OTLP requests
 * the forwarder answered 200, as they came, and lines naming the traces whose earlier requests
 * were deleted (their records are in the pipelines' write-ahead logs: a replay must not make a
 * partial copy of them from the requests left).
 *
 *     AQMREQLOG1\n
 *     R <traces|logs> <protobuf|json> <body bytes> <crc32 hex>\n<body>\n
 *     D <traceId> <traceId> ...\n
 *
 * A file is cut off where a kill stopped a write: reading stops at the first entry that is not whole.
 */
export const REQUEST_LOG_MAGIC = Buffer.from('AQMREQLOG1\n', 'latin1');
export const REQUEST_LOG_SUFFIX = '.aqmreq';
const NAME = /^([0-9a-z]{1,13})x([0-9a-f]{8})-(\d{1,15})\.aqmreq$/;
const REQUEST = /^R (traces|logs) (protobuf|json) (\d{1,12}) ([0-9a-f]{8})$/;

/** One request read back from a log. */
export interface LoggedRequest {
  signal: OtlpSignal;
  format: OtlpFormat;
  body: Buffer;
}

/** The name of log file `sequence` of the process whose log id is `ownerId`. */
export function requestLogName(ownerId: string, sequence: number): string {
  return `${ownerId}-${sequence}${REQUEST_LOG_SUFFIX}`;
}

/** The owner id, its pid and the sequence in a request log's name; `undefined` for another name. */
export function parseRequestLogName(
  name: string,
): { ownerId: string; pid: number; sequence: number } | undefined {
  const match = NAME.exec(name);
  if (match === null) return undefined;
  return {
    ownerId: `${match[1]}x${match[2]}`,
    pid: Number.parseInt(match[1] as string, 36),
    sequence: Number(match[3]),
  };
}

/** The header of a request entry; the body and a newline follow. */
export function requestHeader(signal: OtlpSignal, format: OtlpFormat, body: Buffer): Buffer {
  const checksum = crc32(body).toString(16).padStart(8, '0');
  return Buffer.from(`R ${signal} ${format} ${body.length} ${checksum}\n`, 'latin1');
}

/** A line naming traces no replay may rebuild from the requests left. */
export function doneLine(traceIds: readonly string[]): Buffer {
  return Buffer.from(`D ${traceIds.join(' ')}\n`, 'latin1');
}

/** The whole entries of a request log file: its requests in order and the traces marked done. */
export function decodeRequestLog(data: Buffer): { requests: LoggedRequest[]; done: Set<string> } {
  const requests: LoggedRequest[] = [];
  const done = new Set<string>();
  if (!data.subarray(0, REQUEST_LOG_MAGIC.length).equals(REQUEST_LOG_MAGIC)) return { requests, done };
  let at = REQUEST_LOG_MAGIC.length;
  while (at < data.length) {
    const end = data.indexOf(0x0a, at);
    if (end < 0 || end - at > 8 * 1024 * 1024) break;
    const line = data.subarray(at, end).toString('latin1');
    if (line.startsWith('D ')) {
      for (const id of line.slice(2).split(' ')) if (id !== '') done.add(id);
      at = end + 1;
      continue;
    }
    const match = REQUEST.exec(line);
    if (match === null) break;
    const bytes = Number(match[3]);
    const body = data.subarray(end + 1, end + 1 + bytes);
    if (body.length !== bytes || data[end + 1 + bytes] !== 0x0a) break; // torn by the kill
    if (crc32(body).toString(16).padStart(8, '0') !== match[4]) break;
    requests.push({ signal: match[1] as OtlpSignal, format: match[2] as OtlpFormat, body });
    at = end + 2 + bytes;
  }
  return { requests, done };
}
