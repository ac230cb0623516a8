import {
  AqmAuthenticationError,
  AqmClient,
  AqmConflictError,
  AqmNotFoundError,
  AqmServerError,
  AqmValidationError,
} from '@aqm/client';
import { type RunningServer, startServer } from '@aqm/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTrace, uniqueName } from './helpers.js';

// The typed client against the local service: the two sides share the wire contract, so the
// whole flow of the spec runs end to end.
describe('@aqm/client against the local service', () => {
  let srv: RunningServer;
  let client: AqmClient;
  beforeAll(async () => {
    srv = await startServer({
      apiKeys: [
        { key: 'client-key', projectId: 'p' },
        { key: 'other-key', projectId: 'q' },
      ],
    });
    client = new AqmClient({ apiKey: 'client-key', baseUrl: srv.url, maxRetries: 0 });
  });
  afterAll(async () => {
    await client.close();
    await srv.close();
  });

  it('registers, configures, submits and reads back', async () => {
    const app = await client.applications.create({ name: uniqueName('client'), description: 'e2e' });
    const [metric] = await client.metrics.eval();
    await client.monitoring.update(app.id, { metrics: [{ type: metric?.name as string, threshold: 0.5 }] });
    await client.guardrails.update(app.id, {
      enable_guard_rails: true,
      output_validators: [{ type: 'pii', on_fail: 'mask' }],
    });
    const trace = makeTrace(new Date(Date.now() - 1000), 800, { response: 'Mail x@example.com' });
    expect(await client.evaluations.submit(app.id, { traces: [trace] })).toEqual({
      accepted: 1,
      traceIds: [trace.traceId],
    });
    const read = await client.traces.get(app.id, trace.traceId);
    expect((read.evaluationResults ?? []).map((r) => r.metric)).toEqual([metric?.name]);
    const page = await client.traces.list(app.id);
    expect(page.data.map((t) => t.traceId)).toEqual([trace.traceId]);
    const records = await client.guardrails.evaluations.list(app.id, {
      start: new Date(Date.now() - 60_000),
      end: new Date(Date.now() + 60_000),
    });
    expect(records.count).toBe(1);
    const detail = await client.applications.get(app.id);
    expect(detail.monitoring.metrics).toEqual([{ type: metric?.name, threshold: 0.5 }]);
    const [volume] = await client.widgets.data(app.id, {
      types: ['trace-volume'],
      start: new Date(Date.now() - 3_600_000),
      end: new Date(),
    });
    expect(volume?.total).toBe(1);
  });

  it('maps the service errors onto the client error classes', async () => {
    const name = uniqueName('dup');
    await client.applications.create({ name });
    await expect(client.applications.create({ name })).rejects.toBeInstanceOf(AqmConflictError);
    const mine = await client.applications.create({ name: uniqueName('mine') });
    // The catalog check is the service's own: the client cannot know the catalog.
    const invalid = await client.monitoring
      .update(mine.id, { metrics: [{ type: 'no-such-metric' }] })
      .catch((e) => e);
    expect(invalid).toBeInstanceOf(AqmValidationError);
    expect((invalid as AqmValidationError).errors).toEqual([
      { path: 'metrics[0].type', message: expect.any(String) },
    ]);
    const other = new AqmClient({ apiKey: 'other-key', baseUrl: srv.url, maxRetries: 0 });
    const nobody = new AqmClient({ apiKey: 'nobody', baseUrl: srv.url, maxRetries: 0 });
    try {
      await expect(other.applications.get(mine.id)).rejects.toBeInstanceOf(AqmNotFoundError);
      await expect(nobody.metrics.eval()).rejects.toBeInstanceOf(AqmAuthenticationError);
    } finally {
      await other.close();
      await nobody.close();
    }
    srv.setFaults({ rules: [{ route: 'metrics.eval', status: 503 }] });
    try {
      await expect(client.metrics.eval()).rejects.toBeInstanceOf(AqmServerError);
    } finally {
      srv.setFaults(null);
    }
  });
});
