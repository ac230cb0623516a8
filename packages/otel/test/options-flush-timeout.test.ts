import { describe, expect, it } from 'vitest';
import { EnvironmentConfigError } from '../src/connection-options.js';
import { resolveOptions } from '../src/options.js';
import { createPipeline } from '../src/setup/create-pipeline.js';

const connection = {
  apiKey: 'sk-test',
  baseUrl: 'http://127.0.0.1:4000/api',
  applicationId: '3f1c2b4e-8a7d-4e2f-9b1a-0c6d5e4f3a2b',
};

function errorOf(fn: () => unknown): Error | undefined {
  try {
    fn();
  } catch (error) {
    return error as Error;
  }
  return undefined;
}

describe('flushTimeoutMs', () => {
  it('is 30 s by default (the SDK export timeout), else AQM_FLUSH_TIMEOUT_MS; the option wins', () => {
    expect(resolveOptions(connection, {}).flushTimeoutMs).toBe(30_000);
    expect(resolveOptions(connection, { AQM_FLUSH_TIMEOUT_MS: '' }).flushTimeoutMs).toBe(30_000);
    expect(resolveOptions(connection, { AQM_FLUSH_TIMEOUT_MS: '  ' }).flushTimeoutMs).toBe(30_000);
    expect(resolveOptions(connection, { AQM_FLUSH_TIMEOUT_MS: '5000' }).flushTimeoutMs).toBe(5000);
    expect(resolveOptions(connection, { AQM_FLUSH_TIMEOUT_MS: ' 600000 ' }).flushTimeoutMs).toBe(600_000);
    expect(
      resolveOptions({ ...connection, flushTimeoutMs: 1 }, { AQM_FLUSH_TIMEOUT_MS: '5000' }).flushTimeoutMs,
    ).toBe(1);
  });

  it.each([
    [0, RangeError, 'Expected `flushTimeoutMs` to be an integer from 1 to 600000, got `0` (number)'],
    [
      600_001,
      RangeError,
      'Expected `flushTimeoutMs` to be an integer from 1 to 600000, got `600001` (number)',
    ],
    [2.5, TypeError, 'Expected `flushTimeoutMs` to be an integer from 1 to 600000, got `2.5` (number)'],
    ['5000', TypeError, 'Expected `flushTimeoutMs` to be an integer from 1 to 600000, got `5000` (string)'],
    [
      Number.NaN,
      TypeError,
      'Expected `flushTimeoutMs` to be an integer from 1 to 600000, got `NaN` (number)',
    ],
  ])(
    'a bad value passed in code (%s) throws naming it, whatever the environment holds',
    (value, type, message) => {
      // Even with every connection setting missing: a programmer's error is said first.
      const error = errorOf(() => resolveOptions({ flushTimeoutMs: value as number }, {}));
      expect(error).toBeInstanceOf(type);
      expect(error?.message).toBe(message);
    },
  );

  it.each(['0', '-1', '2.5', 'soon', '600001', '1e3'])(
    'an unusable AQM_FLUSH_TIMEOUT_MS (%s) is an EnvironmentConfigError naming the variable',
    (value) => {
      const error = errorOf(() => resolveOptions(connection, { AQM_FLUSH_TIMEOUT_MS: value }));
      expect(error).toBeInstanceOf(EnvironmentConfigError);
      expect(error?.message).toBe(
        `Expected \`flushTimeoutMs\` (from the AQM_FLUSH_TIMEOUT_MS environment variable) to be an integer from 1 to 600000, got \`${value}\` (string)`,
      );
    },
  );

  it('a processor with an unusable AQM_FLUSH_TIMEOUT_MS is off, with one warning naming it; it never throws', () => {
    const warnings: string[] = [];
    const logger = {
      error: (message: string) => warnings.push(message),
      warn: (message: string) => warnings.push(message),
      info: () => {},
      debug: () => {},
      verbose: () => {},
    };
    const setup = createPipeline('AqmSpanProcessor', connection, {
      env: { AQM_FLUSH_TIMEOUT_MS: 'soon' },
      logger,
    });
    expect(setup.pipeline.enabled).toBe(false);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('AQM_FLUSH_TIMEOUT_MS');
    expect(warnings[0]).not.toContain('sk-test');
  });
});
