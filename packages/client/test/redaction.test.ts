import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AqmClient, type AqmClientOptions, AqmError, redactSecretInText } from '../src/index.js';
import { hang, json, reset, startTestServer, type TestServer, text } from './helpers/test-server.js';

const SECRET = 'aqm_live_SuperSecret_0123456789';

let server: TestServer;
let client: AqmClient;
beforeAll(async () => {
  server = await startTestServer();
  client = new AqmClient({ apiKey: SECRET, baseUrl: server.baseUrl, maxRetries: 0, timeoutMs: 100 });
});
afterAll(async () => {
  await client.close();
  await server.close();
});

function expectNoSecret(text: string | undefined): void {
  expect(text).toBeDefined();
  expect(text).not.toContain(SECRET);
}

describe('the API key never shows', () => {
  it.each([
    ['a 401 naming the key', json(401, { message: `Invalid API key ${SECRET}` })],
    [
      'a 400 repeating it in message and errors[]',
      json(400, {
        success: false,
        message: `bad key ${SECRET}`,
        errors: [{ path: 'x-api-key', message: `${SECRET} is not valid` }],
      }),
    ],
    ['a 500 with it in plain text', text(500, `upstream rejected ${SECRET}`)],
    ['a 200 without an envelope that echoes it', json(200, { echo: { headers: { 'x-api-key': SECRET } } })],
  ])('in errors from %s, which the service echoed it in', async (_label, handler) => {
    server.reply(handler);
    const err = await client.applications.update('app', { name: 'n' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AqmError);
    const e = err as AqmError & { errors?: unknown };
    for (const shown of [
      String(e),
      e.stack,
      inspect(e, { depth: 10 }),
      JSON.stringify(e),
      JSON.stringify(e.body),
    ]) {
      expectNoSecret(shown);
    }
    expect(`${e.message} ${JSON.stringify(e.body)}`).toContain('[redacted]');
  });

  it('in JSON.stringify(client) and util.inspect(client)', () => {
    expect(JSON.parse(JSON.stringify(client))).toEqual({ baseUrl: server.baseUrl, apiKey: '[redacted]' });
    expect(inspect(client)).toBe(
      `AqmClient { baseUrl: ${JSON.stringify(server.baseUrl)}, apiKey: '[redacted]' }`,
    );
    expectNoSecret(inspect(client, { showHidden: true, depth: 10 }));
    expectNoSecret(inspect(client.applications, { showHidden: true, depth: 10 }));
    expectNoSecret(inspect(client.guardrails, { showHidden: true, depth: 10 }));
    expectNoSecret(JSON.stringify(client.guardrails));
    expect(Object.values(client).some((v) => typeof v === 'string' && v.includes(SECRET))).toBe(false);
  });

  it.each([
    ['401', json(401, { message: 'Invalid API key' })],
    ['404', json(404, { success: false, message: 'nope' })],
    ['400', json(400, { success: false, message: 'bad', errors: [{ path: 'name', message: 'x' }] })],
    ['a reset', reset],
    ['a timeout', hang],
  ])('in errors from %s', async (_label, handler) => {
    server.reply(handler);
    const err = await client.applications.update('app', { name: 'n' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AqmError);
    const e = err as AqmError;
    expectNoSecret(String(e));
    expectNoSecret(e.stack);
    expectNoSecret(inspect(e, { depth: 10 }));
    expectNoSecret(JSON.stringify(e));
    // The key did travel, in its header.
    expect(server.requests.at(-1)?.headers['x-api-key']).toBe(SECRET);
  });

  it('in input errors and option errors', async () => {
    const input = (await client.applications.list({ page: -1 }).catch((e: unknown) => e)) as Error;
    expectNoSecret(String(input));
    expectNoSecret(input.stack);
    let optionError: Error | undefined;
    try {
      new AqmClient({
        apiKey: SECRET,
        baseUrl: 'ftp://x',
        headers: { 'x-api-key': SECRET },
      } as AqmClientOptions);
    } catch (e) {
      optionError = e as Error;
    }
    expectNoSecret(optionError?.message);
    expectNoSecret(optionError?.stack);
  });
});

describe('redactSecretInText replaces the key only where it stands whole', () => {
  it.each([
    ['Check --base-url', 'k', 'Check --base-url'],
    ['Could not reach the service', 'e', 'Could not reach the service'],
    ['key k and k.', 'k', 'key [redacted] and [redacted].'],
    ['?key=abc&x=abc', 'abc', '?key=[redacted]&x=[redacted]'],
    ['"abc" abcd xabc abc_1 abc-1', 'abc', '"[redacted]" abcd xabc abc_1 abc-1'],
    ['Invalid API key sk-1: sk-1sk-1', 'sk-1', 'Invalid API key [redacted]: sk-1sk-1'],
    ['x=.k.', '.k.', 'x=[redacted]'],
    ['no key here', 'aqm_live_123', 'no key here'],
  ])('%s (key %s)', (text, secret, shown) => {
    expect(redactSecretInText(text, secret)).toBe(shown);
  });

  it('short keys are redacted in bodies too, without mangling words', async () => {
    const short = new AqmClient({ apiKey: 'k', baseUrl: server.baseUrl, maxRetries: 0, timeoutMs: 100 });
    server.reply(json(401, { message: 'Invalid API key k. Check the key' }));
    const err = (await short.applications.list().catch((e: unknown) => e)) as AqmError;
    await short.close();
    expect(JSON.stringify(err.body)).toBe('{"message":"Invalid API key [redacted]. Check the key"}');
  });
});
