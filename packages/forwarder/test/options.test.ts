import { describe, expect, it } from 'vitest';
import { parseCliArgs } from '../src/cli-args.js';
import { IngestTokens } from '../src/http/ingest-auth.js';
import { isLoopback, resolveForwarderOptions } from '../src/resolve-options.js';

const ENV = {
  AQM_API_KEY: 'secret-upstream-key',
  AQM_BASE_URL: 'http://127.0.0.1:9/api',
  AQM_APPLICATION_ID: '0b7c1f9e-4a55-4d47-9a43-0e3f5e0a1b2c',
};
const TOKEN = 'ingest-token-0123456789';

describe('resolveForwarderOptions', () => {
  it('takes the connection, application and tokens from the environment, with defaults', () => {
    const resolved = resolveForwarderOptions(
      {},
      { ...ENV, AQM_FORWARDER_TOKENS: ` ${TOKEN} , other-token-0123456789` },
    );
    expect(resolved).toMatchObject({
      port: 4318,
      host: '127.0.0.1',
      defaultApplication: { id: ENV.AQM_APPLICATION_ID },
      ingestTokens: [TOKEN, 'other-token-0123456789'],
      maxBodyBytes: 8 * 1024 * 1024,
      rootGraceMs: 1000,
      createApplications: false,
      maxTotalQueueBytes: undefined,
    });
    // The pipeline gets only its own knobs.
    const withKnobs = resolveForwarderOptions({ traceIdleMs: 100, port: 0 }, ENV);
    expect(withKnobs.pipelineOptions).toEqual({
      traceIdleMs: 100,
      concurrency: 8,
      maxOpenTraces: 20_000,
      maxQueueTraces: 20_000,
      maxQueueBytes: 128 * 1024 * 1024,
      serverless: false,
    });
    expect(resolveForwarderOptions({ maxQueueTraces: 5 }, ENV).pipelineOptions.maxQueueTraces).toBe(5);
    expect(resolveForwarderOptions({ applicationName: 'shop' }, ENV).defaultApplication).toEqual({
      name: 'shop',
    });
  });

  it('names the missing or bad option, never showing a secret', () => {
    expect(() => resolveForwarderOptions({}, { ...ENV, AQM_API_KEY: '' })).toThrow(/Missing API key/);
    expect(() => resolveForwarderOptions({}, { ...ENV, AQM_APPLICATION_ID: '' })).toThrow(
      /Missing application/,
    );
    expect(() => resolveForwarderOptions({}, { ...ENV, AQM_APPLICATION_ID: 'nope' })).toThrow(
      /`applicationId` \(from the AQM_APPLICATION_ID environment variable\) to be an application id/,
    );
    expect(() => resolveForwarderOptions({ port: 70_000 }, ENV)).toThrow(/`port`.*70000/);
    expect(() => resolveForwarderOptions({ createApplications: 'yes' as never }, ENV)).toThrow(
      /`createApplications` to be a boolean/,
    );
    expect(() => resolveForwarderOptions({ maxTotalQueueBytes: 0 }, ENV)).toThrow(/`maxTotalQueueBytes`/);
    expect(() => resolveForwarderOptions({}, { ...ENV, AQM_APPLICATION_NAME: 'both' })).toThrow(/not both/);
    let message = '';
    try {
      resolveForwarderOptions({}, { ...ENV, AQM_FORWARDER_TOKENS: 'short-secret' });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/at least 16 characters/);
    expect(message).not.toContain('short-secret');
  });

  it('refuses a non-loopback address without tokens unless allowed', () => {
    expect(() => resolveForwarderOptions({ host: '0.0.0.0' }, ENV)).toThrow(/not loopback/);
    expect(resolveForwarderOptions({ host: '0.0.0.0', ingestTokens: [TOKEN] }, ENV).host).toBe('0.0.0.0');
    expect(resolveForwarderOptions({ host: '::', allowUnauthenticated: true }, ENV).host).toBe('::');
    expect(['127.0.0.1', '127.1.2.3', '::1', 'localhost'].map(isLoopback)).toEqual([true, true, true, true]);
    expect(['0.0.0.0', '10.0.0.1', '::'].map(isLoopback)).toEqual([false, false, false]);
  });
});

describe('IngestTokens', () => {
  it('accepts a known token as Bearer or x-api-key, and nothing else', () => {
    const tokens = new IngestTokens([TOKEN]);
    expect(tokens.accepts({ authorization: `Bearer ${TOKEN}` })).toBe(true);
    expect(tokens.accepts({ authorization: `bearer  ${TOKEN}` })).toBe(true);
    expect(tokens.accepts({ 'x-api-key': TOKEN })).toBe(true);
    expect(tokens.accepts({ authorization: `Bearer ${TOKEN}x` })).toBe(false);
    expect(tokens.accepts({ authorization: TOKEN })).toBe(false);
    expect(tokens.accepts({ 'x-api-key': ['a', 'b'] })).toBe(false);
    expect(tokens.accepts({})).toBe(false);
    expect(new IngestTokens([]).accepts({})).toBe(true);
  });
});

describe('parseCliArgs', () => {
  it('maps flags to options and refuses unknown ones', () => {
    expect(parseCliArgs(['--help'])).toEqual({ kind: 'help' });
    expect(
      parseCliArgs([
        '--port',
        '0',
        '--host',
        '0.0.0.0',
        '--allow-unauthenticated',
        '--trace-idle-ms',
        '2000',
        '--application-from-resource',
        '--create-applications',
      ]),
    ).toEqual({
      kind: 'run',
      options: {
        port: 0,
        host: '0.0.0.0',
        allowUnauthenticated: true,
        traceIdleMs: 2000,
        applicationFromResource: true,
        createApplications: true,
      },
    });
    expect(() => parseCliArgs(['--port', 'abc'])).toThrow(/--port expects a whole number/);
    expect(() => parseCliArgs(['--api-key', 'x'])).toThrow(/Unknown option/);
    expect(() => parseCliArgs(['--sample-rate', '2'])).toThrow(/--sample-rate/);
  });

  it('bounds the bytes of bodies in flight: option, environment variable or flag, at least maxBodyBytes', () => {
    const MIB = 1024 * 1024;
    expect(resolveForwarderOptions({}, ENV).maxBodyBytesInFlight).toBe(64 * MIB);
    expect(resolveForwarderOptions({ maxBodyBytes: MIB }, ENV).maxBodyBytesInFlight).toBe(8 * MIB);
    const fromEnv = { ...ENV, AQM_FORWARDER_MAX_BODY_BYTES_IN_FLIGHT: String(32 * MIB) };
    expect(resolveForwarderOptions({}, fromEnv).maxBodyBytesInFlight).toBe(32 * MIB);
    expect(resolveForwarderOptions({ maxBodyBytesInFlight: 16 * MIB }, fromEnv).maxBodyBytesInFlight).toBe(
      16 * MIB,
    );
    expect(() =>
      resolveForwarderOptions({}, { ...ENV, AQM_FORWARDER_MAX_BODY_BYTES_IN_FLIGHT: '1kb' }),
    ).toThrow(
      /`maxBodyBytesInFlight` \(from the AQM_FORWARDER_MAX_BODY_BYTES_IN_FLIGHT environment variable\) to be an integer/,
    );
    expect(() => resolveForwarderOptions({ maxBodyBytesInFlight: MIB }, ENV)).toThrow(
      /from maxBodyBytes \(8388608\) to .*, got `1048576` \(number\)/,
    );
    expect(parseCliArgs(['--max-body-bytes-in-flight', '1000000'])).toEqual({
      kind: 'run',
      options: { maxBodyBytesInFlight: 1_000_000 },
    });
  });
});
