import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { type RunningServer, startServer } from '@aqm/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caller, makeTrace, uniqueName } from './helpers.js';

const FLOOD = fileURLToPath(new URL('./fixtures/flood-submissions.mjs', import.meta.url));
/** Requests of the quiet project timed alone and under the flood (after as many to warm up). */
const SAMPLES = 60;
/** The bound: the quiet project's median under the flood within this many times its median alone. */
const MAX_RATIO = 5;
/** The quiet project is timed under the flood for at least this long: several of the flood's Retry-After waits. */
const FLOOD_WINDOW_MS = 4_000;

/** What the flooding child reports. */
interface FloodReport {
  requests: number;
  ok: number;
  tooMany: number;
  tooManyWithRetryAfter: number;
  retryAfterSeconds: number[];
  other: Record<string, number>;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
};
const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;

/**
 * One project floods (64 connections of 100-trace submissions, in a child process, each
 * connection waiting a 429's Retry-After as the project's own senders do) while another sends
 * one small submission at a time. The work of a submission (parsing, validation, the writes)
 * runs on the service's one event loop: without admission per project the quiet project's
 * requests queued behind the flood's (its median went from about 2 ms to 75-590 ms, its mean to
 * 200-320 ms, with no 429).
 */
describe('one project flooding submissions', { timeout: 120_000 }, () => {
  let srv: RunningServer;
  let flooder: ChildProcessWithoutNullStreams | undefined;
  let floodApp: string;
  let quietApp: string;
  let quiet: ReturnType<typeof caller>;
  beforeAll(async () => {
    srv = await startServer({
      apiKeys: [
        { key: 'flood-key', projectId: 'flood' },
        { key: 'quiet-key', projectId: 'quiet' },
      ],
    });
    const flood = caller(srv.url, 'flood-key');
    quiet = caller(srv.url, 'quiet-key');
    floodApp = (await flood('POST', '/applications', { json: { name: uniqueName('flood') } })).body.data.id;
    quietApp = (await quiet('POST', '/applications', { json: { name: uniqueName('quiet') } })).body.data.id;
  });
  afterAll(async () => {
    if (flooder?.exitCode === null) flooder.kill('SIGKILL');
    await srv.close();
  });

  /** Times single-trace submissions of the quiet project, one after the other: `count`, for at least `minMs`. */
  async function timeQuiet(count: number, minMs = 0): Promise<number[]> {
    const times: number[] = [];
    const until = performance.now() + minMs;
    while (times.length < count || performance.now() < until) {
      const started = performance.now();
      const res = await quiet('POST', `/applications/${quietApp}/evaluations`, {
        json: { traces: [makeTrace(new Date(), 10)] },
      });
      times.push(performance.now() - started);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    return times;
  }

  it(`keeps the other project's median within ${MAX_RATIO}x of idle, answering the flood 429 with Retry-After`, async () => {
    await timeQuiet(SAMPLES);
    const idleBefore = await timeQuiet(SAMPLES);

    const child = spawn(process.execPath, [FLOOD], {
      env: {
        ...process.env,
        AQM_BASE_URL: srv.url,
        AQM_API_KEY: 'flood-key',
        AQM_APPLICATION_ID: floodApp,
        CONNECTIONS: '64',
        TRACES: '100',
        MAX_MS: '60000',
      },
    });
    flooder = child;
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      err += chunk.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    // The flood is under way once its first answer came back.
    const deadline = Date.now() + 30_000;
    while (!out.includes('"started"') && child.exitCode === null && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(out, err).toContain('"started"');

    await timeQuiet(SAMPLES / 4);
    const floodedTimes = await timeQuiet(SAMPLES, FLOOD_WINDOW_MS);
    const flooded = median(floodedTimes);

    child.stdin.write('stop\n');
    expect(await exited, err).toBe(0);
    // The reference is timed before and after the flood, so that a change in the machine's load
    // (other processes) during the run weighs on both figures.
    const idleTimes = [...idleBefore, ...(await timeQuiet(SAMPLES))];
    const idle = median(idleTimes);
    const report = JSON.parse(out.trim().split('\n').pop() as string) as FloodReport;
    const ratio = flooded / idle;
    // The mean too: the flood's requests were handled in waves, and a median could fall between
    // them while most of the window went to waiting (60 requests in 4 s, median 2 ms).
    const meanRatio = mean(floodedTimes) / mean(idleTimes);
    console.info(
      `[fairness] quiet project alone: median ${idle.toFixed(1)} ms, mean ${mean(idleTimes).toFixed(1)} ms; ` +
        `under the flood (${floodedTimes.length} requests): median ${flooded.toFixed(1)} ms (${ratio.toFixed(1)}x), ` +
        `mean ${mean(floodedTimes).toFixed(1)} ms (${meanRatio.toFixed(1)}x); flood: ${report.requests} requests, ` +
        `${report.ok} accepted, ${report.tooMany} answered 429 (${report.tooManyWithRetryAfter} with Retry-After ` +
        `${report.retryAfterSeconds.join('/')} s), other ${JSON.stringify(report.other)}`,
    );
    expect(report.other).toEqual({});
    // The flood went on through the window: more accepted than one round of requests in progress.
    expect(report.ok).toBeGreaterThan(16);
    expect(ratio).toBeLessThanOrEqual(MAX_RATIO);
    expect(meanRatio).toBeLessThanOrEqual(MAX_RATIO);
    // The flood was told to wait, and how long.
    expect(report.tooMany).toBeGreaterThan(0);
    expect(report.tooManyWithRetryAfter).toBe(report.tooMany);
  });
});
