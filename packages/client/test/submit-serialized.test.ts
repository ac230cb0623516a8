import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AqmClient, AqmInputError } from '../src/index.js';
import { json, startTestServer, type TestServer } from './helpers/test-server.js';

const APP = '3f2c0a51-5d1e-4a43-9a0e-5f6d1c2b7e90';

let server: TestServer;
let client: AqmClient;
beforeAll(async () => {
  server = await startTestServer();
  client = new AqmClient({ apiKey: 'k', baseUrl: server.baseUrl, maxRetries: 1, initialRetryDelayMs: 1 });
});
beforeEach(() => {
  server.requests.length = 0;
});
afterAll(async () => {
  await client.close();
  await server.close();
});

const trace = (id: string, prompt: string) =>
  JSON.stringify({ traceId: id, prompt, response: 'r', startTime: 't0', endTime: 't1', status: 'success' });

describe('client.evaluations.submitSerialized', () => {
  it('sends {"traces":[...]} built from strings and UTF-8 bytes as they are, non-ASCII intact', async () => {
    const first = trace('a'.repeat(32), 'Grüße, 東京 😀');
    const second = Buffer.from(trace('b'.repeat(32), 'plain'), 'utf8');
    server.reply(json(200, { success: true, data: { accepted: 2, traceIds: ['a', 'b'] } }));
    const result = await client.evaluations.submitSerialized(APP, [first, second]);
    expect(result).toEqual({ accepted: 2, traceIds: ['a', 'b'] });
    const [request] = server.requests;
    expect(request?.method).toBe('POST');
    expect(request?.path).toBe(`/applications/${APP}/evaluations`);
    expect(request?.headers['content-type']).toBe('application/json');
    expect(request?.body).toBe(`{"traces":[${first},${second.toString('utf8')}]}`);
    expect(JSON.parse(request?.body ?? '').traces[0].prompt).toBe('Grüße, 東京 😀');
  });

  it('sends each body intact when request buffers are reused, after a success and after a failure', async () => {
    const ok = (id: string) => json(200, { success: true, data: { accepted: 1, traceIds: [id] } });
    const long = trace('c'.repeat(32), 'x'.repeat(100_000));
    const short = trace('d'.repeat(32), 'shorter');
    const third = trace('e'.repeat(32), 'y'.repeat(90_000));
    server.reply(ok('c'), ok('d'), json(400, { success: false, message: 'no' }), ok('e'));
    await client.evaluations.submitSerialized(APP, [long]);
    await client.evaluations.submitSerialized(APP, [short]);
    await expect(client.evaluations.submitSerialized(APP, [third])).rejects.toThrow();
    await client.evaluations.submitSerialized(APP, [short, long]);
    expect(server.requests.map((request) => request.body)).toEqual([
      `{"traces":[${long}]}`,
      `{"traces":[${short}]}`,
      `{"traces":[${third}]}`,
      `{"traces":[${short},${long}]}`,
    ]);
  });

  it('is retried like submit: the same bytes go out again after a 503', async () => {
    server.reply(
      json(503, { success: false, message: 'busy' }),
      json(200, { success: true, data: { accepted: 1, traceIds: ['a'] } }),
    );
    await client.evaluations.submitSerialized(APP, [trace('a'.repeat(32), 'again')]);
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]?.body).toBe(server.requests[0]?.body);
  });

  it.each([
    ['no traces', [], 'traces', 'must hold 1 to 100 traces (got 0)'],
    ['101 traces', Array(101).fill('{}'), 'traces', 'must hold 1 to 100 traces (got 101)'],
    ['a non-string item', ['{}', 42], 'traces[1]', 'must be a JSON string or its UTF-8 bytes'],
  ])('refuses %s before anything is sent, naming the field', async (_label, traces, path, message) => {
    const error = await client.evaluations.submitSerialized(APP, traces as string[]).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AqmInputError);
    expect((error as AqmInputError).errors).toEqual([{ path, message }]);
    expect(server.requests).toHaveLength(0);
  });

  it('still checks the application id', async () => {
    const error = await client.evaluations.submitSerialized('', ['{}']).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AqmInputError);
    expect((error as AqmInputError).errors[0]?.path).toBe('applicationId');
  });
});
