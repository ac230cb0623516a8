import { randomBytes } from 'node:crypto';
import {
  closeSync,
  constants,
  ftruncateSync,
  lstatSync,
  mkdirSync,
  openSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import type { TracePipeline } from '@aqm/otel/pipeline';
import type { DiagLogger } from '@opentelemetry/api';
import type { OtlpFormat, OtlpSignal } from './otlp/otlp-codec.js';
import {
  doneLine,
  REQUEST_LOG_MAGIC,
  requestHeader,
  requestLogName,
  SEGMENT_BYTES,
} from './request-log-file.js';

/** The folder under `persistDir` where the request logs live. */
export const REQUESTS_FOLDER = 'requests';
/** How often the files whose traces are all done are looked for. */
const SWEEP_MS = 200;
const CREATE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);

/** What a logged request brought, to follow until it is done. */
export interface RequestEntry {
  /** The traces the request brought to `pipeline`: the file stays until none of them is open. */
  track(pipeline: TracePipeline, traceIds: Iterable<string>): void;
  /** One more hand-over to wait for (the feed, a held root); returns what to call once it happened. */
  hold(): () => void;
}

class Segment {
  readonly path: string;
  fd: number | undefined;
  size = 0;
  /** Hand-overs to the pipelines not done yet. */
  pending = 0;
  /** Traces brought by its requests; those before `checked` were found done. */
  readonly traces: [TracePipeline, string][] = [];
  checked = 0;

  constructor(path: string) {
    this.path = path;
    this.fd = openSync(path, CREATE_FLAGS, 0o600);
    this.write(REQUEST_LOG_MAGIC);
  }

  write(data: Buffer): void {
    if (this.fd === undefined) throw new Error(`${this.path} is closed`);
    let written = 0;
    while (written < data.length)
      written += writeSync(this.fd, data, written, data.length - written, this.size + written);
    this.size += data.length;
  }

  close(): void {
    if (this.fd === undefined) return;
    try {
      closeSync(this.fd);
    } catch {
      // closed either way
    }
    this.fd = undefined;
  }
}

/**
 * aqm-forwarder's write-ahead log of requests (`persistMode: 'write-ahead'`): before a request is
 * answered 200, its body is appended to a file under `<persistDir>/requests/` with one synchronous
 * write (a kill -9 or an OOM kill keeps it: the page cache outlives the process). A file goes once
 * every hand-over of its requests to the pipelines happened and none of the traces they brought is
 * still being assembled: their records are then in the pipelines' own write-ahead logs (or were
 * given up). Files go oldest first, and the traces of a file that goes are named in the current
 * one, so a replay never rebuilds a part of a trace whose record was made. A forwarder that
 * starts replays the files of one that is gone (see request-log-replay.ts).
 */
export class RequestLog {
  readonly dir: string;
  /** This process's log id: its pid (base 36) and a random part. */
  readonly ownerId = `${process.pid.toString(36)}x${randomBytes(4).toString('hex')}`;
  readonly #logger: DiagLogger;
  readonly #segments: Segment[] = [];
  #sequence = 0;
  /** Whether `dir` was made and found to be a folder of its own (checked once, before the first file). */
  #folderChecked = false;
  #timer: NodeJS.Timeout | undefined;
  #failed = false;
  /** Requests logged. */
  loggedRequests = 0;

  constructor(persistDir: string, logger: DiagLogger) {
    this.dir = join(persistDir, REQUESTS_FOLDER);
    this.#logger = logger;
  }

  /** Bytes of this process's log files. */
  get bytes(): number {
    return this.#segments.reduce((sum, segment) => sum + segment.size, 0);
  }

  /**
   * Appends a request's body; returns the entry to follow its traces with, or `undefined` when
   * the disk refused (the request is then answered 503: a 200 means on disk).
   */
  append(signal: OtlpSignal, format: OtlpFormat, body: Buffer): RequestEntry | undefined {
    try {
      let segment = this.#segments.at(-1);
      if (segment === undefined || segment.fd === undefined || segment.size > SEGMENT_BYTES) {
        segment?.close();
        segment = this.#open();
      }
      const header = requestHeader(signal, format, body);
      // One write: a kill never leaves a header without its body in a file read as whole.
      segment.write(Buffer.concat([header, body, NEWLINE]));
      this.loggedRequests += 1;
      if (this.#failed) {
        this.#failed = false;
        this.#logger.info('persistDir takes request logs again');
      }
      const current = segment;
      return {
        track: (pipeline, traceIds) => {
          for (const traceId of traceIds) current.traces.push([pipeline, traceId]);
        },
        hold: () => {
          current.pending += 1;
          let done = false;
          return () => {
            if (done) return;
            done = true;
            current.pending -= 1;
          };
        },
      };
    } catch (error) {
      if (!this.#failed) {
        this.#failed = true;
        this.#logger.error(
          `persistDir refused the request log (${String(error)}): requests are answered 503 until it takes writes`,
        );
      }
      return undefined;
    }
  }

  /** Deletes the files whose requests are all done, oldest first (the current one is emptied). */
  sweep(): void {
    while (this.#segments.length > 0) {
      const segment = this.#segments[0] as Segment;
      if (segment.pending > 0) return;
      for (; segment.checked < segment.traces.length; segment.checked += 1) {
        const [pipeline, traceId] = segment.traces[segment.checked] as [TracePipeline, string];
        if (pipeline.isOpen(traceId)) return;
      }
      const current = segment === this.#segments.at(-1);
      try {
        if (current) {
          if (segment.fd === undefined || segment.size === REQUEST_LOG_MAGIC.length) return;
          ftruncateSync(segment.fd, REQUEST_LOG_MAGIC.length);
          segment.size = REQUEST_LOG_MAGIC.length;
          segment.traces.length = 0;
          segment.checked = 0;
          return;
        }
        const ids = [...new Set(segment.traces.map(([, traceId]) => traceId))];
        // Named in the newest file before their requests go: a replay of a later file skips them.
        if (ids.length > 0) this.#segments.at(-1)?.write(doneLine(ids));
        segment.close();
        unlinkSync(segment.path);
      } catch (error) {
        this.#logger.warn(`Could not remove a request log from persistDir: ${String(error)}`);
        return;
      }
      this.#segments.shift();
    }
  }

  /** Sweeps in the background. */
  start(): void {
    this.#timer = setInterval(() => this.sweep(), SWEEP_MS);
    this.#timer.unref();
  }

  /**
   * After the pipelines shut down (every trace completed and queued, or on disk): removes the
   * files whose traces are done; a file still holding some stays for the next forwarder.
   */
  close(): void {
    clearInterval(this.#timer);
    this.sweep();
    const last = this.#segments.at(-1);
    for (const segment of this.#segments) segment.close();
    if (this.#segments.length === 1 && last !== undefined && last.size === REQUEST_LOG_MAGIC.length) {
      try {
        unlinkSync(last.path);
      } catch {
        // gone already
      }
    }
  }

  #open(): Segment {
    if (!this.#folderChecked) {
      mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      // Never through a link: the files are opened O_NOFOLLOW, but a `requests` that is a link
      // (or a file) would have them written wherever it points.
      if (!lstatSync(this.dir).isDirectory())
        throw new Error(
          `${this.dir} is not a folder of its own (a link or a file): nothing is written through it`,
        );
      this.#folderChecked = true;
    }
    this.#sequence += 1;
    const segment = new Segment(join(this.dir, requestLogName(this.ownerId, this.#sequence)));
    this.#segments.push(segment);
    return segment;
  }
}

const NEWLINE = Buffer.from('\n');
