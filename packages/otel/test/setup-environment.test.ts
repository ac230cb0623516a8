import { DiagLogLevel, diag, trace } from '@opentelemetry/api';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetAlertsForTests } from '../src/diag.js';
import { AqmSpanExporter } from '../src/exporter.js';
import { AqmLogRecordProcessor } from '../src/log-record-processor.js';
import { AqmSpanProcessor } from '../src/processor.js';
import { registerAqm } from '../src/register.js';
import { CaptureLogger } from './export-helpers/capture-logger.js';

const APP = '3f1c2b4e-8a7d-4e2f-9b1a-0c6d5e4f3a2b';
const KEY = 'sk-live-SECRET-do-not-print-1234';
const FULL_ENV = { AQM_API_KEY: KEY, AQM_BASE_URL: 'http://127.0.0.1:9/api', AQM_APPLICATION_ID: APP };
const CONNECTION = { apiKey: KEY, baseUrl: 'http://127.0.0.1:9/api', applicationId: APP };
const AQM_VARIABLES = [
  'AQM_API_KEY',
  'AQM_BASE_URL',
  'AQM_APPLICATION_ID',
  'AQM_DISABLED',
  'OTEL_SDK_DISABLED',
];

/** A span as the SDK hands it over, enough for onEnd. */
const span = {
  spanContext: () => ({ traceId: '1'.repeat(32), spanId: '2'.repeat(16), traceFlags: 1 }),
  name: 'chat m',
  kind: 2,
  startTime: [1, 0],
  endTime: [2, 0],
  status: { code: 0 },
  attributes: { 'gen_ai.request.model': 'm', 'gen_ai.input.messages': '[]' },
  events: [],
  resource: { attributes: {} },
  instrumentationScope: { name: 't' },
} as never;

const components = [
  ['AqmSpanProcessor', (options: object, internals: object) => new AqmSpanProcessor(options, internals)],
  ['AqmSpanExporter', (options: object, internals: object) => new AqmSpanExporter(options, internals)],
] as const;

let stderr: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  resetAlertsForTests();
  stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
});
afterEach(() => {
  stderr.mockRestore();
  vi.unstubAllEnvs();
  diag.disable();
});

/** Lines written to stderr during the test. */
function stderrLines(): string[] {
  return stderr.mock.calls.map((call: unknown[]) => String(call[0]));
}

describe.each(components)('%s and the environment', (name, create) => {
  it('does not throw when every setting is missing: it is off, with one warning naming them all', async () => {
    const logger = new CaptureLogger();
    const component = create({}, { env: {}, logger });
    expect(component.enabled).toBe(false);
    expect(logger.at('warn')).toEqual([
      `${name} is off, so no trace is sent: AQM_API_KEY, AQM_BASE_URL and AQM_APPLICATION_ID are not set ` +
        '(nor passed as options). Set AQM_API_KEY, AQM_BASE_URL and AQM_APPLICATION_ID (or pass apiKey, ' +
        'baseUrl and applicationId), or set AQM_DISABLED=true to turn @aqm/otel off without this warning.',
    ]);
    await expect(component.forceFlush()).resolves.toBeUndefined();
    expect(component.stats().exportedTraces).toBe(0);
    await expect(component.shutdown()).resolves.toBeUndefined();
  });

  it('names only what is missing when the app passed the rest', () => {
    const logger = new CaptureLogger();
    const component = create({ apiKey: KEY, applicationId: APP }, { env: {}, logger });
    expect(component.enabled).toBe(false);
    expect(logger.at('warn')[0]).toContain(': AQM_BASE_URL is not set (nor passed as options).');
  });

  it('turns off with a warning naming the variable when the environment holds an unusable value, never showing the key', () => {
    const logger = new CaptureLogger();
    const component = create(
      {},
      { env: { ...FULL_ENV, AQM_BASE_URL: 'not a url', AQM_APPLICATION_ID: KEY }, logger },
    );
    expect(component.enabled).toBe(false);
    const [warning] = logger.at('warn');
    expect(warning).toContain(
      'Expected `baseUrl` (from the AQM_BASE_URL environment variable) to be an http(s) URL',
    );
    expect(warning).toContain('AQM_APPLICATION_ID');
    expect(logger.text).not.toContain(KEY);
  });

  it.each([
    ['http://aqm:4000/api', 'plain http to a non-loopback host (aqm)', 'http://aqm:4000/api'],
    [`http://u:${KEY}@127.0.0.1:9/api`, 'must not contain credentials', 'http://127.0.0.1:9/api'],
    [`http://127.0.0.1:9/api?key=${KEY}`, 'must not contain a query string', 'http://127.0.0.1:9/api'],
  ])(
    'turns off with a warning, never throwing, for an AQM_BASE_URL the client refuses: %s',
    (url, reason, shown) => {
      const logger = new CaptureLogger();
      const component = create({}, { env: { ...FULL_ENV, AQM_BASE_URL: url }, logger });
      expect(component.enabled).toBe(false);
      const [warning] = logger.at('warn');
      expect(warning).toContain('`baseUrl` (from the AQM_BASE_URL environment variable) is refused: ');
      expect(warning).toContain(reason);
      expect(warning).toContain(`"${shown}"`);
      expect(logger.text).not.toContain(KEY);
    },
  );

  it('accepts a plain-http AQM_BASE_URL to another host with allowInsecureHttp passed in code', () => {
    const component = create(
      { allowInsecureHttp: true },
      { env: { ...FULL_ENV, AQM_BASE_URL: 'http://aqm:4000/api' }, logger: new CaptureLogger() },
    );
    expect(component.enabled).toBe(true);
    return component.shutdown();
  });

  it.each([
    [{ OTEL_SDK_DISABLED: 'true' }, 'OTEL_SDK_DISABLED is true'],
    [{ OTEL_SDK_DISABLED: 'TRUE' }, 'OTEL_SDK_DISABLED is true'],
    [{ AQM_DISABLED: 'true' }, 'AQM_DISABLED is true'],
    [{ AQM_DISABLED: '1' }, 'AQM_DISABLED is true'],
  ])('is off when %o, whatever the options say, without a warning', (switches, reason) => {
    const logger = new CaptureLogger();
    const component = create(CONNECTION, { env: { ...FULL_ENV, ...switches }, logger });
    expect(component.enabled).toBe(false);
    expect(logger.at('warn')).toEqual([]);
    expect(logger.at('info')).toEqual([`${name} is off (${reason}); no trace is sent.`]);
  });

  it('stays on when the switches say false', () => {
    const component = create(
      {},
      {
        env: { ...FULL_ENV, AQM_DISABLED: 'false', OTEL_SDK_DISABLED: 'false' },
        logger: new CaptureLogger(),
      },
    );
    expect(component.enabled).toBe(true);
    return component.shutdown();
  });

  it('takes an AQM_DISABLED it cannot read as true, and says so', () => {
    const logger = new CaptureLogger();
    const component = create({}, { env: { ...FULL_ENV, AQM_DISABLED: 'maybe' }, logger });
    expect(component.enabled).toBe(false);
    expect(logger.at('warn')).toEqual([
      'AQM_DISABLED must be true or false, got `maybe`; taken as true, so no trace is sent.',
    ]);
  });

  it('still throws for a bad value passed in code, even when off or unconfigured', () => {
    expect(() => create({ concurrency: 0 }, { env: {} })).toThrow(
      'Expected `concurrency` to be an integer from 1 to 64, got `0` (number)',
    );
    expect(() => create({ ...CONNECTION, baseUrl: 'ftp://x' }, { env: { AQM_DISABLED: 'true' } })).toThrow(
      'Expected `baseUrl` to be an http(s) URL, got `ftp://x` (string)',
    );
  });
});

describe('the warning about missing configuration without any logging set up', () => {
  it('is one line on stderr when the app set up neither a diag logger nor OTEL_LOG_LEVEL', () => {
    for (const name of [...AQM_VARIABLES, 'OTEL_LOG_LEVEL']) vi.stubEnv(name, '');
    new AqmSpanProcessor();
    new AqmSpanProcessor(); // the same warning again: rate limited
    const lines = stderrLines();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^@aqm\/otel: AqmSpanProcessor is off, so no trace is sent: AQM_API_KEY, AQM_BASE_URL/,
    );
  });

  it('goes to the diag logger instead when the app set one', () => {
    for (const name of AQM_VARIABLES) vi.stubEnv(name, '');
    const logs = new CaptureLogger();
    diag.setLogger(logs, { logLevel: DiagLogLevel.WARN, suppressOverrideMessage: true });
    new AqmSpanProcessor();
    expect(stderrLines()).toEqual([]);
    expect(logs.at('warn')).toHaveLength(1);
  });

  it('honours OTEL_LOG_LEVEL: none prints nothing, warn prints it', () => {
    for (const name of AQM_VARIABLES) vi.stubEnv(name, '');
    vi.stubEnv('OTEL_LOG_LEVEL', 'none');
    new AqmSpanProcessor();
    expect(stderrLines()).toEqual([]);
    vi.stubEnv('OTEL_LOG_LEVEL', 'warn');
    new AqmSpanExporter();
    expect(stderrLines()).toHaveLength(1);
    expect(stderrLines()[0]).toMatch(/^@aqm\/otel warn: AqmSpanExporter is off/);
  });
});

describe('registerAqm and the environment', () => {
  it('sets nothing up when the settings are missing, and does not throw', async () => {
    for (const name of AQM_VARIABLES) vi.stubEnv(name, '');
    const registration = registerAqm();
    expect(registration).toMatchObject({ tracing: 'disabled', logs: 'disabled' });
    expect(registration.processor.enabled).toBe(false);
    // No provider was registered: the global one is still the no-op proxy.
    const global = trace.getTracerProvider() as { getDelegate?: () => unknown };
    expect(typeof (global.getDelegate?.() as { forceFlush?: unknown })?.forceFlush).not.toBe('function');
    expect(stderrLines()).toHaveLength(1);
    await registration.shutdown();
  });

  it.each(['OTEL_SDK_DISABLED', 'AQM_DISABLED'])(
    'is off with %s=true even with every setting present',
    async (name) => {
      for (const [variable, value] of Object.entries(FULL_ENV)) vi.stubEnv(variable, value);
      vi.stubEnv(name, 'true');
      const registration = registerAqm();
      expect(registration.tracing).toBe('disabled');
      expect(stderrLines()).toEqual([]);
      await registration.shutdown();
    },
  );

  it('still throws for a bad option passed in code', () => {
    for (const name of AQM_VARIABLES) vi.stubEnv(name, '');
    expect(() => registerAqm({ logs: 'yes' as never })).toThrow('Expected `logs` to be a boolean');
  });
});

describe('a disabled component takes spans and forgets them', () => {
  it('AqmLogRecordProcessor on a disabled processor takes records and does nothing', () => {
    const processor = new AqmSpanProcessor({}, { env: {}, logger: new CaptureLogger() });
    const logs = new AqmLogRecordProcessor(processor);
    logs.onEmit({
      spanContext: { traceId: '1'.repeat(32), spanId: '2'.repeat(16), traceFlags: 1 },
      eventName: 'gen_ai.user.message',
      body: { content: 'hi' },
      attributes: {},
    });
    expect(processor.stats().openTraces).toBe(0);
  });

  it('onEnd and export do nothing and report success', async () => {
    const processor = new AqmSpanProcessor({}, { env: {}, logger: new CaptureLogger() });
    processor.onEnd(span);
    expect(processor.stats().openTraces).toBe(0);
    const exporter = new AqmSpanExporter({}, { env: {}, logger: new CaptureLogger() });
    const result = await new Promise((resolve) => exporter.export([span], resolve));
    expect(result).toEqual({ code: 0 });
  });
});
