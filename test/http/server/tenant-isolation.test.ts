import { type RunningServer, startServer } from '@aqm/server';
import { MAX_BODY_BYTES } from '@aqm/wire';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caller, makeTrace, uniqueName } from './helpers.js';

/**
 * One project's hostile scoring must not freeze the others: its submission is scored in a
 * worker, so another project's requests (reads and a small submission) are answered while it
 * runs. The bound is generous for a loaded CI machine; before, scoring ran on the event loop
 * (seconds for linear patterns on 5 MiB, hours for the quadratic ones) and everything waited.
 */
const BOUND_MS = 2_000;

describe('tenant isolation under hostile scoring', { timeout: 180_000 }, () => {
  let srv: RunningServer;
  let hostile: ReturnType<typeof caller>;
  let neighbour: ReturnType<typeof caller>;
  let hostileApp: string;
  let neighbourApp: string;
  beforeAll(async () => {
    srv = await startServer({
      apiKeys: [
        { key: 'hostile-key', projectId: 'hostile' },
        { key: 'neighbour-key', projectId: 'neighbour' },
      ],
    });
    hostile = caller(srv.url, 'hostile-key');
    neighbour = caller(srv.url, 'neighbour-key');
    hostileApp = (await hostile('POST', '/applications', { json: { name: uniqueName('hostile') } })).body.data
      .id;
    neighbourApp = (await neighbour('POST', '/applications', { json: { name: uniqueName('neighbour') } }))
      .body.data.id;
    const metrics = (await hostile('GET', '/metrics/eval')).body.data.map((m: { name: string }) => ({
      type: m.name,
    }));
    await hostile('PUT', `/applications/${hostileApp}/monitoring`, { json: { metrics } });
    await neighbour('PUT', `/applications/${neighbourApp}/monitoring`, { json: { metrics } });
    const topics = Array.from({ length: 200 }, (_, i) => `password topic ${i}`);
    const validators = [
      { type: 'pii', on_fail: 'filter' },
      { type: 'secrets', on_fail: 'mask' },
      { type: 'toxicity', on_fail: 'mask' },
      { type: 'banned-topics', on_fail: 'mask', config: { topics } },
    ];
    await hostile('PUT', `/applications/${hostileApp}/guardrails`, {
      json: { enable_guard_rails: true, input_validators: validators, output_validators: validators },
    });
  });
  afterAll(() => srv.close());

  it(`answers another project within ${BOUND_MS} ms (and half the hostile time) while a 5 MiB hostile submission is scored`, async () => {
    // Blank runs after a password key (quadratic for the old lookbehind) and thousands of
    // adjacent findings (quadratic for the old filter), close to the body limit.
    const half = Math.floor(MAX_BODY_BYTES / 2) - 64 * 1024;
    const trace = makeTrace(new Date(), 10, {
      prompt: `password${' '.repeat(half)}`,
      response: 'a@b.co '.repeat(Math.floor(half / 7)),
    });
    let hostileDone = false;
    const hostileStarted = performance.now();
    const submitted = hostile('POST', `/applications/${hostileApp}/evaluations`, {
      json: { traces: [trace] },
    }).then((res) => {
      hostileDone = true;
      return { res, ms: performance.now() - hostileStarted };
    });
    const latencies: number[] = [];
    let neighbourSubmitMs: number | undefined;
    while (!hostileDone) {
      let started = performance.now();
      expect((await neighbour('GET', '/applications')).status).toBe(200);
      latencies.push(performance.now() - started);
      if (neighbourSubmitMs === undefined && !hostileDone) {
        started = performance.now();
        const res = await neighbour('POST', `/applications/${neighbourApp}/evaluations`, {
          json: { traces: [makeTrace(new Date(), 10)] },
        });
        expect(res.status).toBe(200);
        neighbourSubmitMs = performance.now() - started;
      }
    }
    const { res, ms } = await submitted;
    expect(res.status).toBe(200);
    if (process.env.AQM_ADVERSARIAL_REPORT === '1') {
      process.stdout.write(
        `hostile submission ${ms.toFixed(0)} ms; neighbour reads: ${latencies.length}, max ${Math.max(...latencies).toFixed(1)} ms; neighbour submission ${neighbourSubmitMs?.toFixed(1)} ms\n`,
      );
    }
    // The neighbour's requests overlapped the hostile scoring, and none waited for it (with
    // scoring on the event loop, one would have waited about as long as the whole submission).
    const bound = Math.min(BOUND_MS, ms / 2);
    expect(latencies.length).toBeGreaterThanOrEqual(3);
    expect(Math.max(...latencies)).toBeLessThan(bound);
    expect(neighbourSubmitMs).toBeLessThan(bound);
    // And the hostile trace was scored and stored whole.
    const stored = await hostile('GET', `/applications/${hostileApp}/traces/${trace.traceId}`);
    expect(stored.body.data.prompt).toHaveLength(trace.prompt.length);
  });
});
