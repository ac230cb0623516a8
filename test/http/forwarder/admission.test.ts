import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ForwarderOptions, RunningForwarder } from '@aqm/forwarder';
import { diag } from '@opentelemetry/api';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { captureDiag } from '../otel/helpers/capture-diag.js';
import { storedTraces } from '../otel/helpers/service.js';
import { waitFor } from '../otel/helpers/wait.js';
import { type ForwarderStack, startForwarderStack } from './helpers/forwarder-stack.js';
import { type Answer, jsonBody, llmTraceSpans, postOtlp } from './helpers/otlp-bodies.js';

let stack: ForwarderStack;
beforeAll(async () => {
  stack = await startForwarderStack('forwarder-admission');
});
afterAll(async () => {
  await stack?.close();
});
afterEach(() => {
  diag.disable();
});

/** The service refuses every submission: an outage. */
const OUTAGE = { rules: [{ route: 'evaluations.submit' as const, status: 503 }] };

/** An OTLP/JSON request of `count` LLM traces, each resource carrying `resource` attributes. */
function tracesRequest(
  count: number,
  label: string,
  resource: Record<string, string> = {},
  promptChars = 0,
): { traceIds: string[]; body: Record<string, unknown> } {
  const traceIds: string[] = [];
  const spans = [];
  for (let i = 0; i < count; i += 1) {
    const trace = llmTraceSpans(`${label} ${i}? ${'x'.repeat(promptChars)}`, `${label} ${i}.`);
    traceIds.push(trace.traceId);
    spans.push(...trace.spans);
  }
  const body = JSON.parse(jsonBody(spans).toString('utf8'));
  for (const resourceSpans of body.resourceSpans) {
    for (const [key, value] of Object.entries(resource))
      resourceSpans.resource.attributes.push({ key, value: { stringValue: value } });
  }
  return { traceIds, body };
}

function post(forwarder: RunningForwarder, body: Record<string, unknown>): Promise<Answer> {
  return postOtlp(forwarder.url, Buffer.from(JSON.stringify(body)), { contentType: 'application/json' });
}

/** `partialSuccess` of a 200, or undefined when everything was taken. */
function partialOf(answer: Answer): { rejectedSpans: string; errorMessage: string } | undefined {
  return (JSON.parse(answer.text) as { partialSuccess?: { rejectedSpans: string; errorMessage: string } })
    .partialSuccess;
}

/** How an outage is driven: requests of `perRequest` traces, all at once or one after the other. */
interface Load {
  requests: number;
  perRequest: number;
  together: boolean;
  promptChars?: number;
}

/**
 * Sends requests during an outage, then ends the outage and closes the forwarder (which delivers
 * what it holds). Every answer must be a clean 200 or a 503 with Retry-After; returns the trace
 * ids answered 200.
 */
async function outageThenRecovery(
  options: ForwarderOptions,
  load: Load,
): Promise<{ promised: string[]; refused: number; forwarder: RunningForwarder }> {
  const { requests, perRequest, together, promptChars = 0 } = load;
  const { srv } = stack.service;
  srv.resetRequestCounts();
  srv.setFaults(OUTAGE);
  const forwarder = await stack.forwarder({ shutdownTimeoutMs: 20_000, ...options });
  const promised: string[] = [];
  let refused = 0;
  try {
    const sent = Array.from({ length: requests }, (_, i) =>
      tracesRequest(perRequest, `outage ${i}`, {}, promptChars),
    );
    const answers: Answer[] = [];
    if (together) answers.push(...(await Promise.all(sent.map(({ body }) => post(forwarder, body)))));
    else for (const { body } of sent) answers.push(await post(forwarder, body));
    answers.forEach((answer, i) => {
      if (answer.status === 503) {
        expect(answer.headers.get('retry-after')).toBe('5');
        refused += 1;
        return;
      }
      expect(answer.status).toBe(200);
      expect(partialOf(answer)).toBeUndefined();
      promised.push(...(sent[i]?.traceIds ?? []));
    });
    // The held roots released, the traces completed: all of it waits for the service.
    await waitFor(
      () => forwarder.stats().heldRoots === 0 && forwarder.stats().pipeline.openTraces === 0,
      'the admitted traces completed',
    );
    await waitFor(() => srv.requestCount('evaluations.submit') > 0, 'a refused submission');
  } finally {
    srv.setFaults(null);
    await forwarder.close();
  }
  return { promised, refused, forwarder };
}

describe('a 200 means kept', () => {
  it('delivers every trace answered 200 after an outage, when the request size does not divide maxQueueTraces', async () => {
    // 10 is not a multiple of 3: the fourth request would pass the bound by two traces.
    const { promised, refused, forwarder } = await outageThenRecovery(
      { maxQueueTraces: 10, rootGraceMs: 300 },
      { requests: 8, perRequest: 3, together: true },
    );
    const { pipeline } = forwarder.stats();
    expect(pipeline.droppedTraces.total).toBe(0);
    expect(pipeline.exportedTraces).toBe(promised.length);
    // Three requests fit (9 traces), reserved as they were answered; the five others got 503.
    expect(promised).toHaveLength(9);
    expect(refused).toBe(5);
    const stored = await storedTraces(stack.service.client, stack.applicationId);
    for (const traceId of promised) expect(stored.traceIds.has(traceId), traceId).toBe(true);
  });

  it('counts the bytes of open traces and held roots, so big traces answered 200 are not dropped', async () => {
    const { promised, refused, forwarder } = await outageThenRecovery(
      { maxQueueBytes: 64 * 1024, rootGraceMs: 300 },
      { requests: 12, perRequest: 2, together: false, promptChars: 4000 },
    );
    expect(promised.length).toBeGreaterThan(0);
    expect(refused).toBeGreaterThan(0);
    const { pipeline } = forwarder.stats();
    expect(pipeline.droppedTraces.total).toBe(0);
    expect(pipeline.exportedTraces).toBe(promised.length);
    const stored = await storedTraces(stack.service.client, stack.applicationId);
    for (const traceId of promised) expect(stored.traceIds.has(traceId), traceId).toBe(true);
  });

  it('with persistDir, takes what the memory queue cannot hold to disk instead of answering 503', async () => {
    const persistDir = await mkdtemp(join(tmpdir(), 'aqm-forwarder-admission-'));
    try {
      const { promised, refused, forwarder } = await outageThenRecovery(
        { maxQueueTraces: 10, rootGraceMs: 300, persistDir },
        { requests: 8, perRequest: 3, together: false },
      );
      expect(refused).toBe(0);
      expect(promised).toHaveLength(24);
      expect(forwarder.stats().pipeline.droppedTraces.total).toBe(0);
      // What did not go out before close() stayed on disk: the next start sends it.
      const next = await stack.forwarder({ persistDir });
      const exported = () => forwarder.stats().pipeline.exportedTraces + next.stats().pipeline.exportedTraces;
      await waitFor(() => exported() === promised.length, 'the traces on disk sent');
      const stored = await storedTraces(stack.service.client, stack.applicationId);
      for (const traceId of promised) expect(stored.traceIds.has(traceId), traceId).toBe(true);
    } finally {
      await rm(persistDir, { recursive: true, force: true });
    }
  });
});

describe('the bound across applications', () => {
  it('refuses at start a maxTotalQueueBytes below maxQueueBytes, naming both', async () => {
    await expect(stack.forwarder({ maxQueueBytes: 4096, maxTotalQueueBytes: 2048 })).rejects.toThrow(
      /`maxTotalQueueBytes` to be at least `maxQueueBytes` \(4096\), got 2048/,
    );
  });
});

describe('applications named by resources', () => {
  it('a blocked application (404) does not make a healthy one get 503; a mixed request gets partial_success', async () => {
    const logs = captureDiag();
    const forwarder = await stack.forwarder({
      applicationFromResource: true,
      maxQueueTraces: 4,
      rootGraceMs: 0,
    });
    const blocked = { 'aqm.application.id': randomUUID() }; // unknown to the service: 404, paused
    const healthy = { 'aqm.application.id': stack.applicationId };
    let blockedAnswer: Answer | undefined;
    for (let i = 0; i < 4 && blockedAnswer?.status !== 503; i += 1) {
      blockedAnswer = await post(forwarder, tracesRequest(2, `blocked ${i}`, blocked).body);
    }
    expect(blockedAnswer?.status).toBe(503);
    const delivered: string[] = [];
    for (let i = 0; i < 10; i += 1) {
      const { traceIds, body } = tracesRequest(1, `healthy ${i}`, healthy);
      const answer = await post(forwarder, body);
      expect(answer.status).toBe(200);
      expect(partialOf(answer)).toBeUndefined();
      delivered.push(...traceIds);
      // Delivered as it comes: the healthy queue never fills.
      await waitFor(() => forwarder.stats().pipeline.exportedTraces === delivered.length, 'delivered');
    }
    // One request for both: the healthy share taken, the blocked one refused and counted.
    const mixed = tracesRequest(1, 'mixed healthy', healthy);
    const refusedPart = tracesRequest(1, 'mixed blocked', blocked);
    const both = {
      resourceSpans: [
        ...(mixed.body.resourceSpans as unknown[]),
        ...(refusedPart.body.resourceSpans as unknown[]),
      ],
    };
    const answer = await post(forwarder, both);
    expect(answer.status).toBe(200);
    expect(partialOf(answer)).toMatchObject({
      rejectedSpans: '3',
      errorMessage: expect.stringMatching(/3 span\(s\) refused: the queue of their application is full/),
    });
    await waitFor(
      () => forwarder.stats().pipeline.exportedTraces === delivered.length + 1,
      'mixed delivered',
    );
    expect(forwarder.stats().pipeline.droppedTraces.total).toBe(0);
    // Said once (a minute), not once per refused request.
    const refusals = logs.at('warn').filter((message) => message.includes('Refused '));
    expect(refusals).toHaveLength(1);
    expect(refusals[0]).toMatch(/queue of their application is full/);
  });

  it('creates no application for an unknown service.name unless createApplications, and says so', async () => {
    const logs = captureDiag();
    const forwarder = await stack.forwarder({ applicationFromResource: true, rootGraceMs: 0 });
    const name = `unknown-${randomUUID()}`;
    const answer = await post(forwarder, tracesRequest(1, 'unknown', { 'service.name': name }).body);
    expect(answer.status).toBe(200);
    expect(partialOf(answer)).toMatchObject({
      rejectedSpans: '3',
      errorMessage: expect.stringMatching(/No application is named .*createApplications is off/),
    });
    expect((await stack.service.client.applications.list({ search: name })).data).toEqual([]);
    expect(forwarder.stats().applications).toBe(1);
    // A second request for the same name: refused from memory, and not said again.
    expect(
      partialOf(await post(forwarder, tracesRequest(1, 'again', { 'service.name': name }).body)),
    ).toMatchObject({
      rejectedSpans: '3',
    });
    const said = logs.at('warn').filter((message) => message.includes(name));
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(/are refused: No application is named/);
  });

  it('refuses spans naming more applications than maxApplications, rather than sending them elsewhere', async () => {
    const other = await stack.service.createApp('admission-other');
    const forwarder = await stack.forwarder({
      applicationFromResource: true,
      maxApplications: 2, // the default one and one more
      rootGraceMs: 0,
    });
    const first = await post(forwarder, tracesRequest(1, 'second app', { 'aqm.application.id': other }).body);
    expect(partialOf(first)).toBeUndefined();
    const third = await post(
      forwarder,
      tracesRequest(1, 'third app', { 'aqm.application.id': randomUUID() }).body,
    );
    expect(third.status).toBe(200);
    expect(partialOf(third)).toMatchObject({
      rejectedSpans: '3',
      errorMessage: expect.stringMatching(/more applications than maxApplications \(2\)/),
    });
    await waitFor(() => forwarder.stats().pipeline.exportedTraces === 1, 'the second application delivered');
    expect(forwarder.stats()).toMatchObject({ applications: 2, rejectedSpans: 3 });
  });

  it('does not count names that name no application against maxApplications', async () => {
    const realName = `admission-real-name-${randomUUID()}`;
    await stack.service.client.applications.create({ name: realName });
    const forwarder = await stack.forwarder({
      applicationFromResource: true,
      maxApplications: 2, // the default one and one more
      rootGraceMs: 0,
    });
    // A sender naming applications that do not exist (and may not be created).
    for (const name of ['no-such-app-1', 'no-such-app-2', 'no-such-app-3']) {
      const answer = await post(forwarder, tracesRequest(1, name, { 'service.name': name }).body);
      expect(answer.status).toBe(200);
      expect(partialOf(answer)?.errorMessage).toMatch(/refused/);
    }
    const real = await post(forwarder, tracesRequest(1, 'real app', { 'service.name': realName }).body);
    expect(real.status).toBe(200);
    expect(partialOf(real)).toBeUndefined();
    await waitFor(() => forwarder.stats().pipeline.exportedTraces === 1, 'the real application delivered');
  });
});

describe('persistDir with applications named by resources', () => {
  it("keeps each application's spilled traces apart, and a restarted forwarder sends them to their own application", async () => {
    const persistDir = await mkdtemp(join(tmpdir(), 'aqm-forwarder-apps-'));
    const other = await stack.service.createApp('forwarder-admission-other');
    const { srv } = stack.service;
    try {
      srv.setFaults(OUTAGE);
      const forwarder = await stack.forwarder({
        applicationFromResource: true,
        persistDir,
        maxQueueTraces: 2,
        rootGraceMs: 0,
        shutdownTimeoutMs: 2_000,
      });
      const mine = tracesRequest(3, 'spilled mine', { 'aqm.application.id': stack.applicationId });
      const theirs = tracesRequest(3, 'spilled theirs', { 'aqm.application.id': other });
      for (const { body } of [mine, theirs]) expect((await post(forwarder, body)).status).toBe(200);
      await waitFor(
        () => (forwarder.stats().pipeline.disk?.spilledTraces ?? 0) >= 2,
        'traces of both applications on disk',
      );
      await forwarder.close(); // the service still refuses: what is left stays on disk
      srv.setFaults(null);
      // The next forwarder is sent nothing: it finds the applications' folders and sends what they hold.
      const next = await stack.forwarder({ applicationFromResource: true, persistDir });
      await waitFor(
        () => forwarder.stats().pipeline.exportedTraces + next.stats().pipeline.exportedTraces === 6,
        'every spilled trace sent',
      );
      const storedMine = await storedTraces(stack.service.client, stack.applicationId);
      const storedTheirs = await storedTraces(stack.service.client, other);
      for (const traceId of mine.traceIds) {
        expect(storedMine.traceIds.has(traceId), traceId).toBe(true);
        expect(storedTheirs.traceIds.has(traceId), traceId).toBe(false);
      }
      for (const traceId of theirs.traceIds) {
        expect(storedTheirs.traceIds.has(traceId), traceId).toBe(true);
        expect(storedMine.traceIds.has(traceId), traceId).toBe(false);
      }
    } finally {
      srv.setFaults(null);
      await rm(persistDir, { recursive: true, force: true });
    }
  });
});
