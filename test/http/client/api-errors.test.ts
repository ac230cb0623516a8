import { randomUUID } from 'node:crypto';
import {
  AqmApiError,
  AqmAuthenticationError,
  AqmConflictError,
  AqmInputError,
  AqmNotFoundError,
  AqmValidationError,
} from '@aqm/client';
import {
  authErrorBodySchema,
  errorEnvelopeSchema,
  MAX_BODY_BYTES,
  validationErrorEnvelopeSchema,
} from '@aqm/wire';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTrace, rejection, type Service, startService, uniqueName } from './helpers.js';

// The error classes the real service's answers map to: each produced once by a real request.
describe('client errors answered by the service', () => {
  let service: Service;
  let appId: string;
  beforeAll(async () => {
    service = await startService();
    appId = (await service.client.applications.create({ name: uniqueName('errors') })).id;
  });
  afterAll(() => service.stop());

  it('AqmValidationError: 400 with the spec errors[] paths (an unknown metric type)', async () => {
    const { client } = service;
    const before = await client.monitoring.get(appId);
    const error = await rejection(
      client.monitoring.update(appId, { metrics: [{ type: 'latency' }, { type: 'no-such-metric' }] }),
      AqmValidationError,
    );
    expect(error).toMatchObject({ status: 400, method: 'PUT', path: `/applications/${appId}/monitoring` });
    expect(error.errors).toEqual([{ path: 'metrics[1].type', message: expect.any(String) }]);
    expect(validationErrorEnvelopeSchema.parse(error.body).errors).toEqual(error.errors);
    expect(error.message).toContain('metrics[1].type');
    // Nothing was saved.
    expect(await client.monitoring.get(appId)).toEqual(before);
  });

  it('AqmAuthenticationError: 401 for a wrong key; the message names the key setting, never the key', async () => {
    const wrongKey = `aqm_wrong_${randomUUID()}`;
    const stranger = service.clientWith({ apiKey: wrongKey });
    const error = await rejection(stranger.applications.list(), AqmAuthenticationError);
    expect(error).toMatchObject({ status: 401, method: 'GET', path: '/applications' });
    expect(authErrorBodySchema.parse(error.body).message).not.toBe('');
    expect(error.message).toContain('AQM_API_KEY');
    expect(error.message).toContain('apiKey');
    for (const shown of [error.message, String(error.stack), JSON.stringify(error)]) {
      expect(shown).not.toContain(wrongKey);
      expect(shown).not.toContain(service.key);
    }
  });

  it("AqmNotFoundError: 404 for another project's application, as for one that does not exist", async () => {
    const other = service.clientWith({ apiKey: service.otherKey });
    const foreign = await rejection(other.applications.get(appId), AqmNotFoundError);
    expect(foreign).toMatchObject({ status: 404, method: 'GET', path: `/applications/${appId}` });
    expect(errorEnvelopeSchema.parse(foreign.body).success).toBe(false);
    const missingId = randomUUID();
    const missing = await rejection(service.client.monitoring.get(missingId), AqmNotFoundError);
    expect(missing).toMatchObject({
      status: 404,
      method: 'GET',
      path: `/applications/${missingId}/monitoring`,
    });
    // The foreign application answers exactly like a missing one (but for the id): nothing tells it exists.
    const foreignAsMissing = await rejection(other.applications.get(missingId), AqmNotFoundError);
    expect(JSON.stringify(foreign.body).replaceAll(appId, missingId)).toBe(
      JSON.stringify(foreignAsMissing.body),
    );
  });

  it('AqmConflictError: 409 for a create with a taken name and for an update to a taken name', async () => {
    const { client } = service;
    const taken = uniqueName('taken');
    await client.applications.create({ name: taken });
    const onCreate = await rejection(client.applications.create({ name: taken }), AqmConflictError);
    expect(onCreate).toMatchObject({ status: 409, method: 'POST', path: '/applications' });
    expect(errorEnvelopeSchema.parse(onCreate.body).success).toBe(false);
    const mover = await client.applications.create({ name: uniqueName('mover') });
    const onUpdate = await rejection(client.applications.update(mover.id, { name: taken }), AqmConflictError);
    expect(onUpdate).toMatchObject({ status: 409, method: 'PATCH', path: `/applications/${mover.id}` });
    expect((await client.applications.get(mover.id)).name).toBe(mover.name);
    expect((await client.applications.list({ search: taken })).pagination.total).toBe(1);
  });

  it('AqmApiError: 413 for a submission over 5 MiB made of valid traces', async () => {
    const { client } = service;
    const start = Date.now() - 60_000;
    // Each trace is valid on its own; together they exceed the body limit.
    const bigPrompt = 'Tell me about refunds. '.repeat(Math.ceil(MAX_BODY_BYTES / 4 / 23));
    const traces = Array.from({ length: 5 }, (_, i) => makeTrace(start + i, 100, { prompt: bigPrompt }));
    expect(JSON.stringify({ traces }).length).toBeGreaterThan(MAX_BODY_BYTES);
    const error = await rejection(client.evaluations.submit(appId, { traces }), AqmApiError);
    expect(error).toMatchObject({ status: 413, method: 'POST', path: `/applications/${appId}/evaluations` });
    expect(errorEnvelopeSchema.parse(error.body).success).toBe(false);
    expect((await client.traces.list(appId)).pagination.total).toBe(0);
  });

  it('AqmInputError: limit 101 is refused before the request leaves', async () => {
    const before = service.srv.requestCount();
    const error = await rejection(service.client.applications.list({ limit: 101 }), AqmInputError);
    expect(error).toMatchObject({ status: undefined, method: 'GET', path: '/applications' });
    expect(error.errors).toEqual([{ path: 'limit', message: expect.any(String) }]);
    expect(error.message).toContain('101');
    expect(service.srv.requestCount()).toBe(before);
  });
});
