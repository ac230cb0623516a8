import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { readRegularFile, unreadable } from '@aqm/otel/pipeline';
import type { DiagLogger } from '@opentelemetry/api';
import type { IngestResult } from './ingest-refusals.js';
import {
  decodeRequestLog,
  type LoggedRequest,
  parseRequestLogName,
  SEGMENT_BYTES,
} from './request-log-file.js';

/** A log file is replaced once past SEGMENT_BYTES: at most one more request (`maxBodyBytes` ≤ 256 MiB). */
const MAX_LOG_FILE_BYTES = SEGMENT_BYTES + 256 * 1024 * 1024 + 4096;

/** Takes a request read back from a log again (logging it in this process's own log first). */
export type ReplayRequest = (request: LoggedRequest, skip: ReadonlySet<string>) => Promise<IngestResult>;

/** How long a replayed request is offered again while the forwarder's queues are full. */
const RETRY_FOR_MS = 120_000;
const RETRY_EVERY_MS = 100;

/** Whether process `pid` of this host runs (EPERM: it runs as another user). */
function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Replays the request logs of forwarders that are gone (killed, or that could not finish at
 * shutdown), oldest first, through `replay` (the forwarder's own ingest: each request is logged
 * again in this process's log before it is taken, so the old file can go once replayed). Traces a
 * log names as done are left out: their records were made, and are in the pipelines' own logs.
 * Judged gone by pid, so only a forwarder on the same host takes them over (a container restarted
 * with the same pid is told apart by the log id). Returns the requests replayed.
 */
export async function replayRequestLogs(
  dir: string,
  ownId: string,
  replay: ReplayRequest,
  logger: DiagLogger,
): Promise<number> {
  const stat = await fs.lstat(dir).catch(() => undefined);
  if (stat === undefined) return 0; // no folder: nothing was ever logged
  if (!stat.isDirectory()) {
    logger.error(`${dir} is not a folder of its own (a link or a file): no request log is replayed from it`);
    return 0;
  }
  let names: string[];
  try {
    names = await fs.readdir(dir);
  } catch (error) {
    logger.error(`The request logs in ${dir} could not be listed (${String(error)}): none is replayed`);
    return 0;
  }
  const byOwner = new Map<string, { name: string; sequence: number }[]>();
  for (const name of names) {
    const parsed = parseRequestLogName(name);
    if (parsed === undefined || parsed.ownerId === ownId) continue;
    if (parsed.pid !== process.pid && pidAlive(parsed.pid)) continue;
    const files = byOwner.get(parsed.ownerId) ?? [];
    files.push({ name, sequence: parsed.sequence });
    byOwner.set(parsed.ownerId, files);
  }
  let replayed = 0;
  for (const files of byOwner.values()) {
    files.sort((a, b) => a.sequence - b.sequence);
    const decoded = [];
    const done = new Set<string>();
    for (const file of files) {
      let data: Buffer;
      try {
        // Not through a link, not a FIFO or device, not past what a log file can hold.
        data = await readRegularFile(join(dir, file.name), MAX_LOG_FILE_BYTES);
      } catch (error) {
        logger.error(`Request log ${file.name} is not replayed: ${unreadable(error)}`);
        continue;
      }
      const log = decodeRequestLog(data);
      for (const id of log.done) done.add(id);
      decoded.push({ file, requests: log.requests });
    }
    for (const { file, requests } of decoded) {
      for (const request of requests) {
        await offer(request, done, replay, logger);
        replayed += 1;
      }
      await fs.rm(join(dir, file.name), { force: true });
    }
  }
  if (replayed > 0)
    logger.info(`Replayed ${replayed} request(s) left in persistDir by a forwarder that is gone`);
  return replayed;
}

async function offer(
  request: LoggedRequest,
  skip: ReadonlySet<string>,
  replay: ReplayRequest,
  logger: DiagLogger,
): Promise<void> {
  const until = performance.now() + RETRY_FOR_MS;
  for (;;) {
    const result = await replay(request, skip);
    if (!result.retryLater) {
      if (result.rejected > 0)
        logger.warn(`A replayed request had ${result.rejected} item(s) refused: ${result.errorMessage}`);
      return;
    }
    if (performance.now() > until) {
      logger.error(
        `A replayed request was refused for ${RETRY_FOR_MS} ms and is given up: ${result.errorMessage}`,
      );
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, RETRY_EVERY_MS));
  }
}
