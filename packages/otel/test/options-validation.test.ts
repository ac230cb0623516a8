import { describe, expect, it } from 'vitest';
import { EnvironmentConfigError } from '../src/connection-options.js';
import { type AqmOtelOptions, resolveOptions } from '../src/options.js';

const APP = '3f1c2b4e-8a7d-4e2f-9b1a-0c6d5e4f3a2b';
const KEY = 'sk-live-SECRET-do-not-print-1234';
const connection = { apiKey: KEY, baseUrl: 'http://127.0.0.1:4000/api', applicationId: APP };

function messageOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected a throw');
}

describe('resolveOptions', () => {
  it('applies the documented defaults', () => {
    expect(resolveOptions(connection, {})).toEqual({
      ...connection,
      client: undefined,
      allowInsecureHttp: false,
      concurrency: 2,
      maxBatchTraces: 100,
      maxBatchBytes: 1024 * 1024,
      batchDelayMs: 200,
      maxQueueTraces: 2048,
      maxQueueBytes: 32 * 1024 * 1024,
      maxRetryElapsedMs: 300_000,
      requestTimeoutMs: 10_000,
      exportTimeoutMs: 25_000,
      traceIdleMs: 5000,
      maxSpansPerTrace: 1000,
      maxOpenTraces: 1000,
      maxValueChars: 32_768,
      shutdownTimeoutMs: 10_000,
      flushTimeoutMs: 30_000,
      environment: undefined,
      appVersion: undefined,
      mask: undefined,
      sampleRate: 1,
      shouldExport: undefined,
      persistDir: undefined,
      persistMode: 'overflow',
      maxDiskBytes: 256 * 1024 * 1024,
      serverless: false,
    });
  });

  it('takes the connection from AQM_API_KEY, AQM_BASE_URL and AQM_APPLICATION_ID', () => {
    const resolved = resolveOptions(
      {},
      { AQM_API_KEY: KEY, AQM_BASE_URL: 'https://aqm.example/api', AQM_APPLICATION_ID: APP },
    );
    expect(resolved).toMatchObject({ apiKey: KEY, baseUrl: 'https://aqm.example/api', applicationId: APP });
  });

  it.each([
    [{ baseUrl: connection.baseUrl, applicationId: APP }, 'AQM_API_KEY is not set (nor passed as options)'],
    [{ apiKey: KEY, applicationId: APP }, 'AQM_BASE_URL is not set (nor passed as options)'],
    [{ apiKey: KEY, baseUrl: connection.baseUrl }, 'AQM_APPLICATION_ID is not set (nor passed as options)'],
    [{}, 'AQM_API_KEY, AQM_BASE_URL and AQM_APPLICATION_ID are not set (nor passed as options)'],
  ])('names every missing connection setting in one EnvironmentConfigError (%#)', (options, expected) => {
    let caught: unknown;
    try {
      resolveOptions(options, {});
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(EnvironmentConfigError);
    expect((caught as Error).message).toBe(expected);
  });

  it('checks the options passed in code before the environment: a bad one throws even when settings are missing', () => {
    expect(messageOf(() => resolveOptions({ concurrency: 0 }, {}))).toBe(
      'Expected `concurrency` to be an integer from 1 to 64, got `0` (number)',
    );
    expect(messageOf(() => resolveOptions({ baseUrl: 'ftp://x' }, {}))).toBe(
      'Expected `baseUrl` to be an http(s) URL, got `ftp://x` (string)',
    );
  });

  it('reports an unusable value from the environment as an EnvironmentConfigError, the key redacted', () => {
    let caught: unknown;
    try {
      resolveOptions(
        {},
        { AQM_API_KEY: KEY, AQM_BASE_URL: 'https://aqm.example/api', AQM_APPLICATION_ID: KEY },
      );
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(EnvironmentConfigError);
    expect((caught as Error).message).toBe(
      'Expected `applicationId` (from the AQM_APPLICATION_ID environment variable) to be an application id (a UUID), got `[redacted]` (string)',
    );
  });

  it.each<[keyof AqmOtelOptions, unknown, string]>([
    ['concurrency', 0, 'Expected `concurrency` to be an integer from 1 to 64, got `0` (number)'],
    ['concurrency', 1.5, 'Expected `concurrency` to be an integer from 1 to 64, got `1.5` (number)'],
    ['maxBatchTraces', 101, 'Expected `maxBatchTraces` to be an integer from 1 to 100, got `101` (number)'],
    [
      'maxBatchBytes',
      6 * 1024 * 1024,
      'Expected `maxBatchBytes` to be an integer from 1024 to 5242880, got `6291456` (number)',
    ],
    ['batchDelayMs', -1, 'Expected `batchDelayMs` to be an integer from 0 to 60000, got `-1` (number)'],
    ['batchDelayMs', 2.5, 'Expected `batchDelayMs` to be an integer from 0 to 60000, got `2.5` (number)'],
    ['maxQueueTraces', '10', 'Expected `maxQueueTraces` to be a positive integer, got `10` (string)'],
    ['maxQueueBytes', -1, 'Expected `maxQueueBytes` to be an integer >= 1024, got `-1` (number)'],
    [
      'maxRetryElapsedMs',
      Number.NaN,
      'Expected `maxRetryElapsedMs` to be an integer >= 0, got `NaN` (number)',
    ],
    ['requestTimeoutMs', 0, 'Expected `requestTimeoutMs` to be a positive integer, got `0` (number)'],
    ['exportTimeoutMs', null, 'Expected `exportTimeoutMs` to be a positive integer, got `null`'],
    ['traceIdleMs', 0, 'Expected `traceIdleMs` to be a positive integer, got `0` (number)'],
    ['maxSpansPerTrace', 0, 'Expected `maxSpansPerTrace` to be a positive integer, got `0` (number)'],
    ['maxOpenTraces', 0, 'Expected `maxOpenTraces` to be a positive integer, got `0` (number)'],
    ['maxValueChars', 10, 'Expected `maxValueChars` to be an integer >= 64, got `10` (number)'],
    ['shutdownTimeoutMs', -5, 'Expected `shutdownTimeoutMs` to be a positive integer, got `-5` (number)'],
    ['sampleRate', 1.5, 'Expected `sampleRate` to be a number from 0 to 1, got `1.5` (number)'],
    ['sampleRate', '0.5', 'Expected `sampleRate` to be a number from 0 to 1, got `0.5` (string)'],
    ['environment', '', 'Expected `environment` to be a non-empty string, got `` (string)'],
    ['appVersion', 3, 'Expected `appVersion` to be a non-empty string, got `3` (number)'],
    ['mask', 'redact', 'Expected `mask` to be a function, got `redact` (string)'],
    ['shouldExport', true, 'Expected `shouldExport` to be a function, got `true` (boolean)'],
    ['allowInsecureHttp', 'yes', 'Expected `allowInsecureHttp` to be a boolean, got `yes` (string)'],
    ['serverless', 1, 'Expected `serverless` to be a boolean, got `1` (number)'],
    ['baseUrl', 'ftp://x', 'Expected `baseUrl` to be an http(s) URL, got `ftp://x` (string)'],
    [
      'applicationId',
      'my-app',
      'Expected `applicationId` to be an application id (a UUID), got `my-app` (string)',
    ],
  ])('rejects %s = %s with a message naming it', (name, value, expected) => {
    expect(messageOf(() => resolveOptions({ ...connection, [name]: value }, {}))).toBe(expected);
  });

  it('a proxy variable that is not a proxy URL is an EnvironmentConfigError naming it, without its password', () => {
    const bad = { HTTP_PROXY: 'http://u:pw-secret@[bad' };
    expect(() => resolveOptions(connection, bad)).toThrow(EnvironmentConfigError);
    const message = messageOf(() => resolveOptions(connection, bad));
    expect(message).toMatch(/^HTTP_PROXY must be a proxy URL such as http:\/\/proxy\.example:3128, got /);
    expect(message).not.toContain('pw-secret');
    // A client passed in code brings its own dispatcher: the variables are its business.
    const client = {
      evaluations: { submitSerialized: async () => ({}) },
    } as unknown as AqmOtelOptions['client'];
    expect(() => resolveOptions({ client, applicationId: APP }, bad)).not.toThrow();
    expect(() => resolveOptions(connection, { HTTPS_PROXY: 'proxy.corp:3128' })).not.toThrow();
  });

  it('names the environment variable a bad value came from', () => {
    expect(
      messageOf(() => resolveOptions({ apiKey: KEY }, { AQM_BASE_URL: 'nope', AQM_APPLICATION_ID: APP })),
    ).toBe(
      'Expected `baseUrl` (from the AQM_BASE_URL environment variable) to be an http(s) URL, got `nope` (string)',
    );
  });

  it('never shows the API key, even when it is the bad value', () => {
    const message = messageOf(() =>
      resolveOptions({ ...connection, apiKey: ['sk-array-SECRET'] as unknown as string }, {}),
    );
    expect(message).toBe('Expected `apiKey` to be a non-empty string, got a value of type object');
    const blank = messageOf(() => resolveOptions({ ...connection, apiKey: '   ' }, {}));
    expect(blank).not.toContain('   ');
    for (const name of ['concurrency', 'baseUrl', 'applicationId'] as const) {
      expect(messageOf(() => resolveOptions({ ...connection, [name]: {} }, {}))).not.toContain(KEY);
    }
  });

  it('rejects unknown options, naming them', () => {
    expect(
      messageOf(() => resolveOptions({ ...connection, maxBatchSize: 10 } as AqmOtelOptions, {})),
    ).toContain('Unknown option `maxBatchSize`');
  });

  it('accepts a client instead of apiKey/baseUrl, and refuses both together', () => {
    const client = {
      evaluations: { submitSerialized: async () => ({}) },
    } as unknown as AqmOtelOptions['client'];
    expect(resolveOptions({ client, applicationId: APP }, {})).toMatchObject({ client, apiKey: undefined });
    expect(messageOf(() => resolveOptions({ client, apiKey: KEY, applicationId: APP }, {}))).toContain(
      '`client` cannot be combined with `apiKey`',
    );
    expect(
      messageOf(() => resolveOptions({ client: {} as AqmOtelOptions['client'], applicationId: APP }, {})),
    ).toBe('Expected `client` to be an AqmClient, got an object');
  });
});
