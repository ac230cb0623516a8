import { readFileSync } from 'node:fs';
import { MockAgent } from 'undici';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { describeUrl } from '../src/base-url.js';
import { AqmClient, type AqmClientOptions, CLIENT_VERSION } from '../src/index.js';

const baseUrl = 'http://127.0.0.1:4000/api';

function construct(options: unknown): () => AqmClient {
  return () => new AqmClient(options as AqmClientOptions);
}

describe('AqmClient options', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('reads apiKey and baseUrl from AQM_API_KEY and AQM_BASE_URL', async () => {
    vi.stubEnv('AQM_API_KEY', 'env-key');
    vi.stubEnv('AQM_BASE_URL', 'http://localhost:9999/prefix/');
    const agent = new MockAgent();
    agent.disableNetConnect();
    agent
      .get('http://localhost:9999')
      .intercept({ path: '/prefix/widgets', method: 'GET', headers: { 'x-api-key': 'env-key' } })
      .reply(200, { success: true, data: [{ id: 'w' }] });
    const client = new AqmClient({ dispatcher: agent });
    expect(client.baseUrl).toBe('http://localhost:9999/prefix');
    await expect(client.widgets.list()).resolves.toEqual([{ id: 'w' }]);
    agent.assertNoPendingInterceptors();
    await client.close();
    await agent.close();
  });

  it('prefers explicit options over the environment', () => {
    vi.stubEnv('AQM_API_KEY', 'env-key');
    vi.stubEnv('AQM_BASE_URL', 'http://localhost:1/env');
    expect(new AqmClient({ apiKey: 'k', baseUrl }).baseUrl).toBe(baseUrl);
  });

  it('requires an API key when AQM_API_KEY is unset', () => {
    vi.stubEnv('AQM_API_KEY', undefined);
    expect(construct({ baseUrl })).toThrow(/apiKey is required.*AQM_API_KEY/);
    vi.stubEnv('AQM_API_KEY', '');
    expect(construct({ baseUrl })).toThrow(/apiKey is required/);
  });

  it('requires a base URL when AQM_BASE_URL is unset', () => {
    vi.stubEnv('AQM_BASE_URL', undefined);
    expect(construct({ apiKey: 'k' })).toThrow(/baseUrl is required.*AQM_BASE_URL/);
  });

  it('names the type of a bad apiKey but never its value', () => {
    expect(construct({ apiKey: 42, baseUrl })).toThrow(
      'apiKey must be a non-empty string without line breaks, got a number',
    );
    const err = (() => {
      try {
        new AqmClient({ apiKey: 'secret\nvalue', baseUrl });
      } catch (e) {
        return e as Error;
      }
    })();
    expect(err?.message).toMatch(/apiKey must be/);
    expect(err?.message).not.toContain('secret');
  });

  it('refuses plain http to a non-loopback host unless allowInsecureHttp', () => {
    expect(construct({ apiKey: 'k', baseUrl: 'http://aqm.example.com/api' })).toThrow(
      /plain http to a non-loopback host \(aqm\.example\.com\).*allowInsecureHttp/,
    );
    const client = new AqmClient({
      apiKey: 'k',
      baseUrl: 'http://aqm.example.com/api',
      allowInsecureHttp: true,
    });
    expect(client.baseUrl).toBe('http://aqm.example.com/api');
  });

  it.each([
    'http://localhost:4000/api',
    'http://127.0.0.1/api',
    'http://127.1.2.3:80',
    'http://[::1]:4000/api',
    'https://aqm.example.com/api',
  ])('accepts %s without allowInsecureHttp', (url) => {
    expect(new AqmClient({ apiKey: 'k', baseUrl: url }).baseUrl).toBe(url.replace(/:80$/, ''));
  });

  it.each([
    ['ftp://127.0.0.1/api', /baseUrl must use http: or https:, got "ftp:\/\/127\.0\.0\.1\/api"/],
    ['not a url', /baseUrl must be an absolute http\(s\) URL, got "not a url"/],
    ['http://user:pw@127.0.0.1/api', /baseUrl must not contain credentials/],
    ['http://127.0.0.1/api?x=1', /baseUrl must not contain a query string or fragment/],
    ['http://127.0.0.10.example.com/api', /non-loopback host/],
  ])('refuses baseUrl %s', (url, message) => {
    expect(construct({ apiKey: 'k', baseUrl: url })).toThrow(message);
  });

  it.each([
    [{ timeoutMs: 0 }, RangeError, 'timeoutMs must be a number > 0 and <= 2147483647, got 0'],
    [{ timeoutMs: '5' }, TypeError, 'timeoutMs must be a number > 0 and <= 2147483647, got "5"'],
    [{ maxRetries: -1 }, RangeError, 'maxRetries must be an integer >= 0, got -1'],
    [{ maxRetries: 1.5 }, RangeError, 'maxRetries must be an integer >= 0, got 1.5'],
    [
      { initialRetryDelayMs: Number.NaN },
      TypeError,
      'initialRetryDelayMs must be a number >= 0 and <= 2147483647, got NaN',
    ],
    [{ maxRetryDelayMs: -5 }, RangeError, 'maxRetryDelayMs must be a number >= 0 and <= 2147483647, got -5'],
    [{ allowInsecureHttp: 'yes' }, TypeError, 'allowInsecureHttp must be a boolean, got "yes"'],
    [{ userAgent: '' }, TypeError, 'userAgent must be a non-empty string, got ""'],
    [{ userAgent: 'a\r\nx-evil: 1' }, TypeError, 'userAgent must not contain CR, LF or NUL characters'],
    [
      { dispatcher: {} },
      TypeError,
      'dispatcher must be an undici Dispatcher (Agent, Pool, MockAgent...), got an object',
    ],
    [
      { headers: ['x'] },
      TypeError,
      'headers must be an object of header names to string values, got an array',
    ],
    [
      { headers: { 'x-api-key': 'other' } },
      TypeError,
      'headers: "x-api-key" is set by the client and cannot be overridden; use the apiKey option',
    ],
    [{ headers: { 'bad name': 'v' } }, TypeError, 'headers: "bad name" is not a valid header name'],
    [
      { headers: { 'x-n': 1 } },
      TypeError,
      'headers: the value of "x-n" must be a string without CR, LF or NUL characters',
    ],
    [
      { timeout: 5 },
      TypeError,
      'Unknown AqmClient option "timeout"; expected one of apiKey, baseUrl, timeoutMs',
    ],
  ])('rejects %o with a message naming option, expectation and value', (extra, type, message) => {
    const make = construct({ apiKey: 'k', baseUrl, ...extra });
    expect(make).toThrow(type);
    expect(make).toThrow(message);
  });

  it('rejects non-object options', () => {
    expect(construct('k')).toThrow('AqmClient options must be an object, got "k"');
  });

  it('checks per-call request options', async () => {
    const client = new AqmClient({ apiKey: 'k', baseUrl });
    await expect(client.metrics.eval({ timeoutMs: -1 })).rejects.toThrow('timeoutMs must be a number > 0');
    await expect(client.metrics.eval({ maxRetries: 0.5 })).rejects.toThrow(
      'maxRetries must be an integer >= 0, got 0.5',
    );
    await expect(client.metrics.eval({ signal: 'x' } as never)).rejects.toThrow(
      'signal must be an AbortSignal, got "x"',
    );
    await expect(client.metrics.eval({ retries: 1 } as never)).rejects.toThrow(
      'Unknown request option "retries"',
    );
    await client.close();
  });

  it('CLIENT_VERSION matches package.json', () => {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    expect(CLIENT_VERSION).toBe(pkg.version);
  });
});

describe('a refused baseUrl is echoed without credentials, query string or fragment', () => {
  it.each([
    ['http://user:hunter2@127.0.0.1/api', '"http://127.0.0.1/api" (credentials not shown)'],
    ['http://127.0.0.1/api?token=s3cret', '"http://127.0.0.1/api" (query string not shown)'],
    ['http://127.0.0.1/api#s3cret', '"http://127.0.0.1/api" (query string not shown)'],
    ['ftp://u:hunter2@host/x?k=s3cret', '"ftp://host/x" (credentials and query string not shown)'],
    ['not a url?key=s3cret', '"not a url" (query string not shown)'],
    ['user:hunter2@host/api', '"host/api" (credentials not shown)'],
    ['http://a@b@host/api', '"http://host/api" (credentials not shown)'],
    ['http://127.0.0.1/api', '"http://127.0.0.1/api"'],
  ])('%s', (url, shown) => {
    expect(describeUrl(url)).toBe(shown);
  });

  it.each([
    'http://user:hunter2@127.0.0.1/api?token=s3cret',
    'http://127.0.0.1/api?token=s3cret',
    'ftp://user:hunter2@127.0.0.1/api?token=s3cret',
    'http://user:hunter2@aqm.example.com/api?token=s3cret',
    'http//user:hunter2@127.0.0.1/api?token=s3cret',
  ])('in the error for %s', (url) => {
    let message = '';
    try {
      new AqmClient({ apiKey: 'k', baseUrl: url });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/^baseUrl must/);
    expect(message).not.toContain('hunter2');
    expect(message).not.toContain('s3cret');
  });
});
