import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AqmClient, AqmError, AqmInputError } from '../src/index.js';
import { json, ok, startTestServer, type TestServer } from './helpers/test-server.js';

const APP = '3f2c0a51-5d1e-4a43-9a0e-5f6d1c2b7e90';
const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';

let server: TestServer;
let client: AqmClient;
beforeAll(async () => {
  server = await startTestServer();
  client = new AqmClient({ apiKey: 'k', baseUrl: server.baseUrl });
});
beforeEach(() => {
  server.requests.length = 0;
});
afterAll(async () => {
  await client.close();
  await server.close();
});

async function inputError(promise: Promise<unknown>): Promise<AqmInputError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AqmInputError);
  expect(err).toBeInstanceOf(AqmError);
  // Nothing may leave the client when its own checks fail.
  expect(server.requests).toHaveLength(0);
  return err as AqmInputError;
}

const range = { start: '2026-01-01T00:00:00Z', end: '2026-01-02T00:00:00Z' };

describe('input checks before the request leaves', () => {
  it('page 0 and limit 101 name both parameters', async () => {
    const err = await inputError(client.applications.list({ page: 0, limit: 101 }));
    expect(err.status).toBeUndefined();
    expect(err.method).toBe('GET');
    expect(err.path).toBe('/applications');
    expect(err.errors).toEqual([
      { path: 'page', message: 'must be an integer >= 1' },
      { path: 'limit', message: 'must be an integer from 1 to 100' },
    ]);
    expect(err.message).toBe(
      'Invalid input for applications.list (GET /applications): page must be an integer >= 1 (got 0); ' +
        'limit must be an integer from 1 to 100 (got 101)',
    );
  });

  it('end before start', async () => {
    const err = await inputError(
      client.guardrails.evaluations.list(APP, { start: new Date('2026-01-02'), end: new Date('2026-01-01') }),
    );
    expect(err.errors).toEqual([{ path: 'end', message: 'must be on or after start' }]);
    expect(err.message).toContain('end must be on or after start');
  });

  it('required query fields (guardrail evaluations need start and end)', async () => {
    const err = await inputError(client.guardrails.evaluations.list(APP, {} as never));
    expect(err.errors.map((e) => e.path)).toEqual(['start', 'end']);
    expect(err.message).toContain('start is required');
  });

  it('missing or empty path parameters', async () => {
    const err = await inputError(client.guardrails.evaluations.get('', undefined as unknown as string));
    expect(err.errors).toEqual([
      { path: 'applicationId', message: 'is required and must be a non-empty string' },
      { path: 'evaluationId', message: 'is required and must be a non-empty string' },
    ]);
    expect(err.path).toBe('/applications/{applicationId}/guardrails/evaluations/{evaluationId}');
    const second = await inputError(client.monitoring.get(42 as unknown as string));
    expect(second.message).toContain('applicationId is required and must be a non-empty string (got 42)');
  });

  it('an invalid Date', async () => {
    const err = await inputError(client.traces.list(APP, { start: new Date('nonsense') }));
    expect(err.errors).toEqual([{ path: 'start', message: 'must be a valid Date (got Invalid Date)' }]);
    const body = await inputError(
      client.evaluations.submit(APP, {
        traces: [
          {
            traceId: TRACE,
            prompt: 'p',
            response: 'r',
            startTime: new Date(Number.NaN),
            endTime: new Date(),
            status: 'success',
          },
        ],
      }),
    );
    expect(body.errors).toEqual([
      { path: 'traces[0].startTime', message: 'must be a valid Date (got Invalid Date)' },
    ]);
  });

  it('body fields, with indexed paths', async () => {
    const err = await inputError(client.monitoring.update(APP, { metrics: [{ type: 'ok' }, { type: '' }] }));
    expect(err.errors).toEqual([{ path: 'metrics[1].type', message: 'must not be empty' }]);
    const empty = await inputError(client.applications.update(APP, {}));
    expect(empty.errors).toEqual([
      { path: '$', message: 'at least one of name, description must be provided' },
    ]);
    const widgets = await inputError(client.widgets.data(APP, { types: [], ...range }));
    expect(widgets.errors).toEqual([{ path: 'types', message: 'must hold at least 1 widget id' }]);
    const missing = await inputError(client.applications.create(undefined as never));
    expect(missing.errors[0]?.path).toBe('$');
  });

  it('a body that cannot be serialised', async () => {
    const err = await inputError(client.applications.create({ name: 'x', extra: 1n } as never));
    expect(err.errors[0]).toMatchObject({ path: '$' });
    expect(err.message).toContain('must be JSON-serialisable');
  });
});

describe('what is sent', () => {
  it('Dates and offset timestamps go out as ISO 8601 UTC, in queries and bodies', async () => {
    server.reply(ok({ results: [], count: 0, page: 1, limit: 20 }));
    await client.guardrails.evaluations.list(APP, {
      start: new Date(Date.UTC(2026, 0, 1, 12)),
      end: '2026-01-01T15:00:00+02:00',
    });
    const query = server.requests[0]!.query;
    expect(query.get('start')).toBe('2026-01-01T12:00:00.000Z');
    expect(query.get('end')).toBe('2026-01-01T13:00:00.000Z');

    server.reply(ok({ accepted: 1, traceIds: [TRACE] }));
    const startTime = new Date(Date.UTC(2026, 0, 1, 8, 0, 0, 250));
    await client.evaluations.submit(APP, {
      traces: [
        {
          traceId: TRACE,
          prompt: 'What time is 2026-01-01T10:00:00+02:00?',
          response: 'r',
          startTime,
          endTime: '2026-01-01T10:00:01+02:00',
          status: 'success',
          spans: [
            {
              spanId: 'a1b2c3d4e5f60718',
              name: 'llm',
              kind: 'client',
              startTime,
              endTime: startTime,
              status: { code: 'ok' },
              attributes: {},
              events: [{ name: 'e', time: startTime }],
            },
          ],
        },
      ],
    });
    const sent = JSON.parse(server.requests[1]!.body);
    expect(sent.traces[0].startTime).toBe(startTime.toISOString());
    expect(sent.traces[0].endTime).toBe('2026-01-01T08:00:01.000Z');
    expect(sent.traces[0].spans[0].events[0].time).toBe(startTime.toISOString());
    // Text that merely looks like a timestamp is not rewritten.
    expect(sent.traces[0].prompt).toBe('What time is 2026-01-01T10:00:00+02:00?');
  });

  it("sends the caller's body, keeping fields the wire schema does not know", async () => {
    server.reply(ok({ id: APP, name: 'n', description: '', updatedAt: range.start }));
    await client.applications.update(APP, { name: '  spaced  ', labels: ['a'] } as never);
    expect(JSON.parse(server.requests[0]!.body)).toEqual({ name: '  spaced  ', labels: ['a'] });

    server.reply(ok([]));
    await client.widgets.data(APP, {
      types: ['latency'],
      start: '2026-01-01T02:00:00+02:00',
      end: range.end,
      bucket: 'hour',
    } as never);
    // Unknown key kept, and the timestamps still normalised.
    expect(JSON.parse(server.requests[1]!.body)).toEqual({
      types: ['latency'],
      start: '2026-01-01T00:00:00.000Z',
      end: '2026-01-02T00:00:00.000Z',
      bucket: 'hour',
    });
  });

  it('leaves undefined query values out and keeps query parameters the client does not know', async () => {
    server.reply(
      json(200, { success: true, data: [], pagination: { page: 1, limit: 20, total: 0, totalPages: 0 } }),
    );
    await client.applications.list({ search: undefined, page: 1, sort: 'name' } as never);
    expect(server.requests[0]!.url).toBe('/api/applications?page=1&sort=name');
  });
});
