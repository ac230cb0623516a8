import { randomUUID } from 'node:crypto';
import { type RunningServer, startServer } from '@aqm/server';
import { MAX_BODY_BYTES } from '@aqm/wire';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caller } from './helpers.js';

describe('authentication and error envelopes', () => {
  let srv: RunningServer;
  let call: ReturnType<typeof caller>;
  beforeAll(async () => {
    srv = await startServer({
      apiKeys: [
        { key: 'good-key', projectId: 'p1' },
        { key: 'old-key', projectId: 'p1', revoked: true },
      ],
    });
    call = caller(srv.url, 'good-key');
  });
  afterAll(() => srv.close());

  it('url is the base URL with the /api prefix', () => {
    expect(srv.url).toBe(`http://127.0.0.1:${srv.port}/api`);
  });

  it.each([
    ['missing', null],
    ['empty', ''],
    ['unknown', 'nobody-key'],
    ['revoked', 'old-key'],
  ])('a %s key gets 401 { message } without a success field', async (_label, key) => {
    const res = await call('GET', '/applications', { key });
    expect(res.status).toBe(401);
    expect(Object.keys(res.body)).toEqual(['message']);
    expect(res.body.message).toEqual(expect.any(String));
  });

  it('a key revoked at run time is refused from then on', async () => {
    srv.addApiKey({ key: 'temp-key', projectId: 'p1' });
    expect((await call('GET', '/metrics/eval', { key: 'temp-key' })).status).toBe(200);
    expect(srv.revokeApiKey('temp-key')).toBe(true);
    const res = await call('GET', '/metrics/eval', { key: 'temp-key' });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: 'API key has been revoked' });
  });

  it('an unknown route answers the 404 error envelope', async () => {
    const res = await call('GET', '/no-such-thing');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ success: false, message: expect.stringContaining('/no-such-thing') });
  });

  it('malformed JSON answers 400 with the validation envelope at $', async () => {
    const res = await call('POST', '/applications', { raw: '{"name": "x",' });
    expect(res.status).toBe(400);
    expect(res.body.success).toBe(false);
    expect(res.body.message).toEqual(expect.any(String));
    expect(res.body.errors).toEqual([{ path: '$', message: expect.stringContaining('JSON') }]);
  });

  it("a badly percent-encoded path answers 400 with the validation envelope at $, not fastify's own body", async () => {
    for (const segment of ['%', '%zz', '%E0%A4%A']) {
      const res = await call('GET', `/applications/${segment}/traces`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        success: false,
        message: expect.any(String),
        errors: [{ path: '$', message: expect.stringContaining('percent-encoded') }],
      });
    }
  });

  it('a path parameter longer than 100 characters is a malformed id named like any other', async () => {
    const res = await call('GET', `/applications/${'f'.repeat(101)}/traces/${'a'.repeat(4000)}`);
    expect(res.status).toBe(400);
    expect(res.body.success).toBe(false);
    expect(res.body.errors.map((error: { path: string }) => error.path)).toEqual([
      'applicationId',
      'traceId',
    ]);
  });

  it('a missing body answers 400 at $', async () => {
    const res = await call('POST', '/applications');
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ path: '$', message: expect.stringContaining('required') }]);
  });

  it('a JSON text sent as text/plain answers 415 naming the content type, not "received string"', async () => {
    const res = await call('POST', '/applications', {
      raw: JSON.stringify({ name: 'plain' }),
      headers: { 'content-type': 'text/plain;charset=UTF-8' },
    });
    expect(res.status).toBe(415);
    expect(res.body).toEqual({
      success: false,
      message: expect.stringMatching(/Content-Type "text\/plain;charset=UTF-8".*application\/json/),
    });
    expect((await call('GET', '/applications?search=plain')).body.pagination.total).toBe(0);
  });

  it.each([
    ['[]', 'an array'],
    ['null', 'null'],
    ['"x"', 'a string'],
    ['1', 'a number'],
  ])('a JSON body %s answers 400 at $: must be a JSON object, got %s', async (raw, kind) => {
    const res = await call('PUT', `/applications/${randomUUID()}/monitoring`, { raw });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ path: '$', message: `must be a JSON object, got ${kind}` }]);
  });

  it('a body over MAX_BODY_BYTES answers 413 with the error envelope', async () => {
    const traces = [{ traceId: 'a'.repeat(32), prompt: 'x'.repeat(MAX_BODY_BYTES), response: '' }];
    const res = await call('POST', `/applications/${randomUUID()}/evaluations`, { json: { traces } });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ success: false, message: expect.stringContaining(String(MAX_BODY_BYTES)) });
  });

  it('a body just under the limit is read (and validated)', async () => {
    const padding = 'x'.repeat(MAX_BODY_BYTES - 100);
    const res = await call('POST', '/applications', { json: { name: 'ok', padding } });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ path: 'padding', message: 'is not a known field' }]);
  });

  it('body errors carry indexed paths into arrays', async () => {
    const created = await call('POST', '/applications', { json: { name: 'indexed-paths' } });
    const res = await call('PUT', `/applications/${created.body.data.id}/monitoring`, {
      json: { metrics: [{ type: 'toxicity' }, { type: 7 }] },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ path: 'metrics[1].type', message: 'must be a string' }]);
  });

  it('validation errors of params, query and body come together', async () => {
    const res = await call('GET', '/applications/not-a-uuid/traces?limit=0&status=bad');
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { path: string }) => e.path).sort()).toEqual([
      'applicationId',
      'limit',
      'status',
    ]);
  });

  it('counts requests per route, refused ones included', async () => {
    srv.resetRequestCounts();
    await call('GET', '/metrics/eval');
    await call('GET', '/metrics/eval', { key: null });
    await call('GET', '/widgets');
    await call('GET', '/nowhere');
    expect(srv.requestCount('metrics.eval')).toBe(2);
    expect(srv.requestCount('widgets.list')).toBe(1);
    expect(srv.requestCount('applications.list')).toBe(0);
    expect(srv.requestCount()).toBe(4);
  });
});

describe('startServer options', () => {
  it('rejects bad options with errors naming them', async () => {
    await expect(startServer({ apiKeys: [] })).rejects.toThrow(/options\.apiKeys must be a non-empty array/);
    await expect(startServer({ apiKeys: [{ key: 'k', projectId: 'p' }], port: 70000 })).rejects.toThrow(
      /options\.port must be an integer from 0 to 65535, got 70000/,
    );
    await expect(startServer({ apiKeys: [{ key: 'k', projectId: 'p' }], prefix: 'api' })).rejects.toThrow(
      /options\.prefix must be/,
    );
    await expect(
      startServer({ apiKeys: [{ key: 'k', projectId: 'p' }], faults: { rules: [{ rate: 2, status: 500 }] } }),
    ).rejects.toThrow(/options\.faults\.rules\[0\]\.rate must be a number from 0 to 1, got 2/);
  });

  it('never echoes a key in an option error', async () => {
    const secret = 'super secret key';
    const error = await startServer({ apiKeys: [{ key: secret, projectId: 'p' }] }).catch((e: Error) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toMatch(
      /apiKeys\[0\]\.key must be a non-empty string of visible ASCII characters \(no whitespace/,
    );
    expect((error as Error).message).not.toContain(secret);
  });

  it('serves under another prefix, or none', async () => {
    for (const prefix of ['/v1/aqm', '']) {
      const srv = await startServer({ apiKeys: [{ key: 'k', projectId: 'p' }], prefix });
      try {
        expect(srv.url).toBe(`http://127.0.0.1:${srv.port}${prefix}`);
        const res = await caller(srv.url, 'k')('GET', '/widgets');
        expect(res.status).toBe(200);
      } finally {
        await srv.close();
      }
    }
  });
});
