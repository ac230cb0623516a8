import { request as httpRequest } from 'node:http';
import { type RunningServer, startServer } from '@aqm/server';
import { MAX_CONFIG_LIST_ITEMS, MAX_VALIDATORS_PER_STAGE } from '@aqm/wire';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caller, makeTrace, uniqueName } from './helpers.js';

/** A JSON text nested `depth` levels of `{"a": ...}` around a string, built without recursion. */
function deepJson(depth: number): string {
  return `${'{"a":'.repeat(depth)}"leaf"${'}'.repeat(depth)}`;
}

describe('the local service against hostile input', () => {
  let srv: RunningServer;
  let call: ReturnType<typeof caller>;
  let other: ReturnType<typeof caller>;
  let appId: string;
  beforeAll(async () => {
    srv = await startServer({
      apiKeys: [
        { key: 'k', projectId: 'p' },
        { key: 'k2', projectId: 'p2' },
      ],
    });
    call = caller(srv.url, 'k');
    other = caller(srv.url, 'k2');
    appId = (await call('POST', '/applications', { json: { name: uniqueName('hostile') } })).body.data.id;
  });
  afterAll(() => srv.close());

  it('answers an attribute nested 4,100 levels deep with 400 naming the path, not 500', async () => {
    const trace = makeTrace(new Date(), 10);
    const span = {
      spanId: '0123456789abcdef',
      name: 'llm',
      kind: 'client',
      startTime: trace.startTime,
      endTime: trace.endTime,
      status: { code: 'ok' },
      attributes: '__DEEP__',
    };
    const raw = JSON.stringify({ traces: [{ ...trace, spans: [span] }] }).replace(
      '"__DEEP__"',
      `{"x":${deepJson(4100)}}`,
    );
    const res = await call('POST', `/applications/${appId}/evaluations`, { raw });
    expect(res.status).toBe(400);
    expect(res.body.success).toBe(false);
    expect(res.body.errors[0].path).toMatch(/^traces\[0\]\.spans\[0\]\.attributes\.x(\.a)+$/);
    expect(res.body.errors[0].message).toMatch(/nests deeper than 32 levels/);
    expect((await call('GET', `/applications/${appId}/traces/${trace.traceId}`)).status).toBe(404);
  });

  describe('NUL characters are refused with 400, never stored cut', () => {
    it('in an application name (a later "prod" is still free)', async () => {
      const name = uniqueName('prod');
      const res = await call('POST', '/applications', { json: { name: `${name}\u0000-shadow` } });
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual([
        { path: 'name', message: 'must not contain NUL (U+0000) characters' },
      ]);
      expect((await call('POST', '/applications', { json: { name } })).status).toBe(200);
    });

    it('in a prompt, and in a query (search=%00 matches nothing: it is refused)', async () => {
      const trace = makeTrace(new Date(), 10, { prompt: 'before\u0000after' });
      const res = await call('POST', `/applications/${appId}/evaluations`, { json: { traces: [trace] } });
      expect(res.status).toBe(400);
      expect(res.body.errors[0].path).toBe('traces[0].prompt');
      const search = await call('GET', `/applications/${appId}/traces?search=%00`);
      expect(search.status).toBe(400);
      expect(search.body.errors).toEqual([
        { path: 'search', message: 'must not contain NUL (U+0000) characters' },
      ]);
      expect((await call('GET', '/applications?search=a%00b')).status).toBe(400);
    });
  });

  describe('dates outside years 0000-9999 get 400', () => {
    it('in a submitted trace', async () => {
      const trace = makeTrace(new Date(), 10, {
        startTime: '9999-12-31T23:00:00-05:00',
        endTime: '9999-12-31T23:30:00-05:00',
      });
      const res = await call('POST', `/applications/${appId}/evaluations`, { json: { traces: [trace] } });
      expect(res.status).toBe(400);
      expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual(
        expect.arrayContaining(['traces[0].startTime', 'traces[0].endTime']),
      );
    });

    it('in query ranges and in widget data, where start after end with year 10000 was 200', async () => {
      const far = encodeURIComponent('9999-12-31T23:00:00-05:00');
      expect((await call('GET', `/applications/${appId}/traces?start=${far}`)).status).toBe(400);
      expect((await call('GET', `/applications/${appId}/evaluations?end=${far}`)).status).toBe(400);
      const res = await call('POST', `/applications/${appId}/widget-data`, {
        json: { types: ['trace-volume'], start: '9999-12-31T23:00:00-05:00', end: '2026-01-01T00:00:00Z' },
      });
      expect(res.status).toBe(400);
      expect(res.body.errors[0]).toMatchObject({
        path: 'start',
        message: expect.stringMatching(/9999-12-31/),
      });
    });
  });

  it('finds an own application by its upper-case UUID, and still hides another project’s', async () => {
    const res = await call('GET', `/applications/${appId.toUpperCase()}`);
    expect(res.status).toBe(200);
    expect(res.body.data.id).toBe(appId);
    expect((await other('GET', `/applications/${appId.toUpperCase()}`)).status).toBe(404);
  });

  it.each(['0x10', '0b11', '1e3', '+1', '%201', '1.0'])(
    'refuses page=%s with 400 naming page',
    async (page) => {
      const res = await call('GET', `/applications?page=${page}`);
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual([{ path: 'page', message: 'must be an integer >= 1' }]);
    },
  );

  it('answers 431 (headers too large) with the error envelope', async () => {
    const url = new URL(`${srv.url}/applications`);
    const answer = await new Promise<{ status: number | undefined; body: string }>((resolve, reject) => {
      const req = httpRequest(
        url,
        { method: 'GET', headers: { 'x-api-key': 'k', 'x-filler': 'f'.repeat(20_000) } },
        (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            body += chunk;
          });
          res.on('end', () => resolve({ status: res.statusCode, body }));
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(answer.status).toBe(431);
    expect(JSON.parse(answer.body)).toEqual({
      success: false,
      message: 'Request header fields are larger than the limit of 16 KiB',
    });
  });

  it('refuses a body declared in another charset than UTF-8 with 415, and accepts utf-8 spelled any way', async () => {
    const body = JSON.stringify({ name: uniqueName('charset') });
    const res = await call('POST', '/applications', {
      raw: body,
      headers: { 'content-type': 'application/json; charset=utf-16' },
    });
    expect(res.status).toBe(415);
    expect(res.body).toEqual({ success: false, message: expect.stringMatching(/charset "utf-16".*UTF-8/) });
    const ok = await call('POST', '/applications', {
      raw: body,
      headers: { 'content-type': 'application/json; Charset="UTF-8"' },
    });
    expect(ok.status).toBe(200);
  });

  it.each([
    ['{"name":"p1","__proto__":{"admin":true}}', '__proto__'],
    ['{"name":"p2","constructor":{"prototype":{"admin":true}}}', 'constructor'],
  ])('refuses %s with 400 naming the key, not "not valid JSON"', async (raw, key) => {
    const res = await call('POST', '/applications', { raw });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([
      { path: key, message: `is not allowed: a "${key}" key could change an object's prototype` },
    ]);
  });

  it('refuses a __proto__ key deep in trace metadata naming its path, and says why JSON is invalid', async () => {
    const trace = makeTrace(new Date(), 10);
    const raw = JSON.stringify({ traces: [{ ...trace, metadata: { a: '__P__' } }] }).replace(
      '"__P__"',
      '{"__proto__":{"polluted":1}}',
    );
    const res = await call('POST', `/applications/${appId}/evaluations`, { raw });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].path).toBe('traces[0].metadata.a.__proto__');
    expect((await call('GET', `/applications/${appId}/traces/${trace.traceId}`)).status).toBe(404);
    const broken = await call('POST', '/applications', { raw: '{"name":' });
    expect(broken.status).toBe(400);
    expect(broken.body.errors).toEqual([
      { path: '$', message: expect.stringMatching(/^is not valid JSON \(.+\)$/) },
    ]);
  });

  it.each(['gzip', 'br', 'GZIP, identity'])(
    'refuses a body with Content-Encoding %s with 415 naming it; nothing is created',
    async (encoding) => {
      const name = uniqueName('encoded');
      const res = await call('POST', '/applications', {
        raw: JSON.stringify({ name }),
        headers: { 'content-type': 'application/json', 'content-encoding': encoding },
      });
      expect(res.status).toBe(415);
      expect(res.body).toEqual({
        success: false,
        message: `Unsupported Content-Encoding ${JSON.stringify(encoding)}: send the JSON body uncompressed (no Content-Encoding)`,
      });
      expect((await call('GET', `/applications?search=${name}`)).body.pagination.total).toBe(0);
      const identity = await call('POST', '/applications', {
        raw: JSON.stringify({ name }),
        headers: { 'content-type': 'application/json', 'content-encoding': 'identity' },
      });
      expect(identity.status).toBe(200);
    },
  );

  describe('configuration sizes are bounded with a 400 naming the field', () => {
    it(`banned-topics takes at most ${MAX_CONFIG_LIST_ITEMS} topics`, async () => {
      const topics = Array.from({ length: 20_000 }, (_, i) => `topic ${i}`);
      const res = await call('PUT', `/applications/${appId}/guardrails`, {
        json: {
          enable_guard_rails: true,
          input_validators: [{ type: 'banned-topics', on_fail: 'fail', config: { topics } }],
        },
      });
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual([
        {
          path: 'input_validators[0].config.topics',
          message: `must hold at most ${MAX_CONFIG_LIST_ITEMS} items, got 20000`,
        },
      ]);
      const long = await call('PUT', `/applications/${appId}/guardrails`, {
        json: {
          input_validators: [
            { type: 'banned-topics', on_fail: 'fail', config: { topics: ['x'.repeat(201)] } },
          ],
        },
      });
      expect(long.body.errors[0].path).toBe('input_validators[0].config.topics[0]');
    });

    it(`at most ${MAX_VALIDATORS_PER_STAGE} validators per stage`, async () => {
      const validators = Array.from({ length: MAX_VALIDATORS_PER_STAGE + 1 }, () => ({
        type: 'pii',
        on_fail: 'mask',
      }));
      const res = await call('PUT', `/applications/${appId}/guardrails`, {
        json: { output_validators: validators },
      });
      expect(res.status).toBe(400);
      expect(res.body.errors[0].path).toBe('output_validators');
    });
  });
});
