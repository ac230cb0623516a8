import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DiagLogger } from '@opentelemetry/api';
import { afterEach, describe, expect, it } from 'vitest';
import { RequestLog } from '../src/request-log.js';
import { REQUEST_LOG_MAGIC, requestHeader, requestLogName } from '../src/request-log-file.js';
import { type ReplayRequest, replayRequestLogs } from '../src/request-log-replay.js';

// The request log only ever writes and reads what it created itself: a `requests` folder that is
// a link, or a log file that is a link or a FIFO, is refused, not followed.

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'aqm-request-log-'));
  made.push(dir);
  return dir;
};

function captureLogger(): { logger: DiagLogger; lines: string[] } {
  const lines: string[] = [];
  const say = (message: string) => {
    lines.push(message);
  };
  return {
    lines,
    logger: { error: say, warn: say, info: say, debug: say, verbose: say },
  };
}

/** A log file of a forwarder that is gone (same pid, another log id: a restarted container). */
const goneLogName = () => requestLogName(`${process.pid.toString(36)}xdeadbeef`, 1);
const body = Buffer.from('{"resourceSpans":[]}');
const logData = Buffer.concat([
  REQUEST_LOG_MAGIC,
  requestHeader('traces', 'json', body),
  body,
  Buffer.from('\n'),
]);

const countingReplay = () => {
  const replayed: string[] = [];
  const replay: ReplayRequest = async (request) => {
    replayed.push(request.body.toString());
    return { accepted: 1, rejected: 0, errorMessage: '', retryLater: false };
  };
  return { replayed, replay };
};

describe('request log: links are not followed', () => {
  it('refuses a `requests` folder that is a link: nothing is written where it points', () => {
    const persistDir = tempDir();
    const elsewhere = tempDir();
    symlinkSync(elsewhere, join(persistDir, 'requests'));
    const { logger, lines } = captureLogger();
    const log = new RequestLog(persistDir, logger);
    // Refused: the request is answered 503 instead of a 200 that is not on disk.
    expect(log.append('traces', 'json', body)).toBeUndefined();
    expect(readdirSync(elsewhere)).toEqual([]);
    expect(lines.join('\n')).toMatch(/requests is not a folder of its own/);
  });

  it('writes into a `requests` folder of its own', () => {
    const persistDir = tempDir();
    const log = new RequestLog(persistDir, captureLogger().logger);
    expect(log.append('traces', 'json', body)).toBeDefined();
    expect(readdirSync(join(persistDir, 'requests'))).toHaveLength(1);
  });

  it('replays nothing from a `requests` folder that is a link', async () => {
    const persistDir = tempDir();
    const elsewhere = tempDir();
    writeFileSync(join(elsewhere, goneLogName()), logData);
    symlinkSync(elsewhere, join(persistDir, 'requests'));
    const { logger, lines } = captureLogger();
    const { replayed, replay } = countingReplay();
    expect(await replayRequestLogs(join(persistDir, 'requests'), 'ownid', replay, logger)).toBe(0);
    expect(replayed).toEqual([]);
    expect(readdirSync(elsewhere)).toEqual([goneLogName()]); // not deleted either
    expect(lines.join('\n')).toMatch(/not a folder of its own/);
  });

  it('skips a log file that is a link or a FIFO, and replays the regular one beside them', async () => {
    const dir = join(tempDir(), 'requests');
    mkdirSync(dir);
    const elsewhere = tempDir();
    writeFileSync(join(elsewhere, 'target'), logData);
    const ownerA = `${process.pid.toString(36)}xaaaaaaaa`;
    const ownerB = `${process.pid.toString(36)}xbbbbbbbb`;
    const ownerC = `${process.pid.toString(36)}xcccccccc`;
    symlinkSync(join(elsewhere, 'target'), join(dir, requestLogName(ownerA, 1)));
    execFileSync('mkfifo', [join(dir, requestLogName(ownerB, 1))]);
    writeFileSync(join(dir, requestLogName(ownerC, 1)), logData);
    const { logger, lines } = captureLogger();
    const { replayed, replay } = countingReplay();
    // A read of the FIFO would wait for a writer forever: this resolving is part of the test.
    expect(await replayRequestLogs(dir, 'ownid', replay, logger)).toBe(1);
    expect(replayed).toEqual([body.toString()]);
    expect(lines.join('\n')).toMatch(/symbolic link, not followed/);
    expect(lines.join('\n')).toMatch(/a FIFO, not a regular file/);
    // The link and the FIFO are left as they were; the replayed file is gone.
    expect(readdirSync(dir).sort()).toEqual([requestLogName(ownerA, 1), requestLogName(ownerB, 1)].sort());
    expect(readdirSync(elsewhere)).toEqual(['target']);
  });
});
