import { DiagLogLevel } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { DEFAULT_FLUSH_TIMEOUT_MS, readAutoConfig } from '../src/config/env-config.js';

const KEY = 'sk-auto-unit-DO-NOT-PRINT-91c2';
const ID = '0f8e2d4c-6b1a-4c3e-9d7f-5a2b8c1e4d6f';
const BASE = { AQM_API_KEY: KEY, AQM_BASE_URL: 'http://127.0.0.1:4000/api', AQM_APPLICATION_ID: ID };

function warningOf(env: Record<string, string>): string | undefined {
  const outcome = readAutoConfig(env);
  if (outcome.kind !== 'off') throw new Error('expected @aqm/auto to be off');
  return outcome.warning;
}

describe('readAutoConfig', () => {
  it('reads a complete environment, with the defaults of the optional variables', () => {
    expect(readAutoConfig(BASE)).toEqual({
      kind: 'enabled',
      config: {
        apiKey: KEY,
        baseUrl: 'http://127.0.0.1:4000/api',
        application: { id: ID },
        environment: undefined,
        appVersion: undefined,
        sampleRate: undefined,
        serviceName: undefined,
        flushTimeoutMs: DEFAULT_FLUSH_TIMEOUT_MS,
        captureContent: true,
        logLevel: undefined,
      },
    });
  });

  it('reads every optional variable', () => {
    const outcome = readAutoConfig({
      ...BASE,
      AQM_ENVIRONMENT: 'staging',
      AQM_APP_VERSION: '2.4.1',
      AQM_SAMPLE_RATE: '0.25',
      OTEL_SERVICE_NAME: 'support-bot',
      AQM_FLUSH_TIMEOUT_MS: '1500',
      OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: 'false',
      OTEL_LOG_LEVEL: 'debug',
    });
    expect(outcome).toMatchObject({
      kind: 'enabled',
      config: {
        environment: 'staging',
        appVersion: '2.4.1',
        sampleRate: 0.25,
        serviceName: 'support-bot',
        flushTimeoutMs: 1500,
        captureContent: false,
        logLevel: DiagLogLevel.DEBUG,
      },
    });
  });

  it('takes AQM_APPLICATION_NAME (trimmed) when there is no id, and the id when both are set', () => {
    const { AQM_APPLICATION_ID: _id, ...withoutId } = BASE;
    expect(readAutoConfig({ ...withoutId, AQM_APPLICATION_NAME: '  support-bot ' })).toMatchObject({
      config: { application: { name: 'support-bot' } },
    });
    expect(readAutoConfig({ ...BASE, AQM_APPLICATION_NAME: 'support-bot' })).toMatchObject({
      config: { application: { id: ID } },
    });
  });

  it.each(['true', 'TRUE', '1', 'yes', 'on'])('AQM_DISABLED=%s turns it off without a warning', (value) => {
    expect(readAutoConfig({ ...BASE, AQM_DISABLED: value })).toEqual({
      kind: 'off',
      reason: 'AQM_DISABLED is true',
      warning: undefined,
    });
  });

  it.each(['true', 'TRUE', ' true '])('OTEL_SDK_DISABLED=%s turns it off without a warning', (value) => {
    expect(readAutoConfig({ ...BASE, OTEL_SDK_DISABLED: value })).toEqual({
      kind: 'off',
      reason: 'OTEL_SDK_DISABLED is true',
      warning: undefined,
    });
  });

  it.each(['false', '1', 'yes', ''])(
    'OTEL_SDK_DISABLED=%s leaves it on (only `true` counts, as in OpenTelemetry)',
    (value) => {
      expect(readAutoConfig({ ...BASE, OTEL_SDK_DISABLED: value }).kind).toBe('enabled');
    },
  );

  it.each(['false', '0', 'no', 'off', ''])('AQM_DISABLED=%s leaves it on', (value) => {
    expect(readAutoConfig({ ...BASE, AQM_DISABLED: value }).kind).toBe('enabled');
  });

  it.each([
    ['AQM_API_KEY', 'AQM_API_KEY is not set'],
    ['AQM_BASE_URL', 'AQM_BASE_URL is not set'],
    ['AQM_APPLICATION_ID', 'Neither AQM_APPLICATION_ID nor AQM_APPLICATION_NAME is set'],
  ])('a missing %s gives one warning saying what to set', (name, problem) => {
    const env: Record<string, string> = { ...BASE, [name]: '  ' }; // blank counts as unset
    expect(warningOf(env)).toBe(
      `${problem}, so no LLM trace is sent. Set AQM_API_KEY, AQM_BASE_URL and AQM_APPLICATION_ID ` +
        '(or AQM_APPLICATION_NAME), or AQM_DISABLED=true to turn @aqm/auto off without this warning.',
    );
  });

  it.each([
    ['AQM_DISABLED', 'maybe', 'AQM_DISABLED must be true or false, got `maybe`'],
    [
      'AQM_BASE_URL',
      'localhost:4000',
      'AQM_BASE_URL must be an http(s) URL such as https://aqm.example.com/api, got `localhost:4000`',
    ],
    [
      'AQM_BASE_URL',
      'ftp://aqm.example.com',
      'AQM_BASE_URL must be an http(s) URL such as https://aqm.example.com/api, got `ftp://aqm.example.com`',
    ],
    [
      'AQM_APPLICATION_ID',
      'support-bot',
      'AQM_APPLICATION_ID must be an application id (a UUID), got `support-bot`',
    ],
    ['AQM_SAMPLE_RATE', '1.5', 'AQM_SAMPLE_RATE must be a number from 0 to 1, got `1.5`'],
    ['AQM_SAMPLE_RATE', 'half', 'AQM_SAMPLE_RATE must be a number from 0 to 1, got `half`'],
    ['AQM_FLUSH_TIMEOUT_MS', '0', 'AQM_FLUSH_TIMEOUT_MS must be an integer from 1 to 600000, got `0`'],
    ['AQM_FLUSH_TIMEOUT_MS', '2.5', 'AQM_FLUSH_TIMEOUT_MS must be an integer from 1 to 600000, got `2.5`'],
    [
      'OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT',
      'flase',
      'OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT must be true or false, got `flase`',
    ],
  ])('%s=%s is refused with a warning naming it and its value', (name, value, problem) => {
    expect(warningOf({ ...BASE, [name]: value })).toBe(
      `${problem}, so no LLM trace is sent. Fix the variable, or set AQM_DISABLED=true.`,
    );
  });

  it.each([
    [
      'http://aqm:4000/api',
      'AQM_BASE_URL is refused: it uses plain http to a non-loopback host (aqm), which would send the API key ' +
        'unencrypted; use https (plain http is for loopback addresses only), got "http://aqm:4000/api"',
    ],
    [
      `https://user:${KEY}@aqm.example.com/api`,
      'AQM_BASE_URL is refused: it must not contain credentials; the key goes in AQM_API_KEY, ' +
        'got "https://aqm.example.com/api" (credentials not shown)',
    ],
    [
      `https://aqm.example.com/api?key=${KEY}`,
      'AQM_BASE_URL is refused: it must not contain a query string or fragment, ' +
        'got "https://aqm.example.com/api" (query string not shown)',
    ],
  ])(
    'AQM_BASE_URL=%s, which the client would refuse, is refused up front naming the variable',
    (url, problem) => {
      expect(warningOf({ ...BASE, AQM_BASE_URL: url })).toBe(
        `${problem}, so no LLM trace is sent. Fix the variable, or set AQM_DISABLED=true.`,
      );
    },
  );

  it('refuses an application name longer than the service accepts, giving its length', () => {
    const { AQM_APPLICATION_ID: _id, ...withoutId } = BASE;
    expect(warningOf({ ...withoutId, AQM_APPLICATION_NAME: 'x'.repeat(101) })).toContain(
      'AQM_APPLICATION_NAME must be at most 100 characters, got 101 characters',
    );
  });

  it('turns off on a proxy variable that is not a proxy URL, naming it, without its password or the key', () => {
    const warning = warningOf({ ...BASE, https_proxy: `http://u:pw-${KEY}@[bad` });
    expect(warning).toMatch(/^https_proxy must be a proxy URL such as http:\/\/proxy\.example:3128, got /);
    expect(warning).toContain('so no LLM trace is sent');
    expect(warning).not.toContain('pw-');
    expect(warning).not.toContain('DO-NOT');
    expect(readAutoConfig({ ...BASE, HTTPS_PROXY: 'http://proxy.corp:3128', NO_PROXY: '*' }).kind).toBe(
      'enabled',
    );
  });

  it('never puts the API key in a warning', () => {
    const warnings = [
      warningOf({ ...BASE, AQM_BASE_URL: KEY }),
      warningOf({ ...BASE, AQM_APPLICATION_ID: '' }),
      warningOf({ AQM_API_KEY: KEY }),
      // Even inside a longer value that is shortened for the message.
      warningOf({ ...BASE, AQM_SAMPLE_RATE: `${'9'.repeat(40)}${KEY}` }),
    ];
    for (const warning of warnings) {
      expect(warning).not.toContain(KEY.slice(0, 8));
      expect(warning).not.toContain('DO-NOT');
    }
    // A key pasted into the wrong variable is not shown as that variable's value either.
    expect(warnings[0]).toContain(
      'AQM_BASE_URL must be an http(s) URL such as https://aqm.example.com/api, got `[redacted]`',
    );
  });

  it('ignores an unknown OTEL_LOG_LEVEL (OpenTelemetry decides about its own variable)', () => {
    expect(readAutoConfig({ ...BASE, OTEL_LOG_LEVEL: 'chatty' })).toMatchObject({
      kind: 'enabled',
      config: { logLevel: undefined },
    });
  });
});
