import { aqm, DEFAULT_MAX_CAPTURE_BYTES } from '@aqm/express';
import { describe, expect, it } from 'vitest';

type AnyOptions = Parameters<typeof aqm>[0];
const build = (options: unknown) => () => aqm(options as AnyOptions);

describe('aqm() options', () => {
  it('accepts no options and every documented option', () => {
    expect(aqm()).toBeTypeOf('function');
    expect(
      aqm({
        sessionId: () => 's',
        userId: () => 'u',
        environment: 'production',
        appVersion: '1.0.0',
        capture: { prompt: () => 'p', response: () => 'r' },
        maxCaptureBytes: 1,
        tracerProvider: { getTracer: () => ({}) as never },
      }),
    ).toHaveLength(3);
    expect(aqm({ sessionIdHeader: 'X-Conversation-Id', userIdHeader: 'x-account' })).toBeTypeOf('function');
    expect(DEFAULT_MAX_CAPTURE_BYTES).toBe(65536);
  });

  it('takes undefined for any option, as read from the environment (exactOptionalPropertyTypes)', () => {
    const unset: string | undefined = process.env.AQM_TEST_NEVER_SET;
    // Type-checked with exactOptionalPropertyTypes: each value may be undefined, meaning the default.
    const middleware = aqm({
      sessionId: undefined,
      userId: undefined,
      sessionIdHeader: unset,
      userIdHeader: unset,
      environment: unset,
      appVersion: unset,
      capture: undefined,
      maxCaptureBytes: undefined,
      tracerProvider: undefined,
    });
    expect(middleware).toHaveLength(3);
    expect(aqm({ capture: { prompt: () => 'p', response: undefined } })).toHaveLength(3);
  });

  const invalid: Array<[unknown, typeof TypeError | typeof RangeError, string]> = [
    [null, TypeError, 'Expected the options of aqm() to be an object, got `null`'],
    ['production', TypeError, 'Expected the options of aqm() to be an object, got `production` (string)'],
    [{ sessionID: () => 's' }, TypeError, 'Unknown option `sessionID`; known options are sessionId, userId,'],
    [
      { sessionId: 'x-session' },
      TypeError,
      'Expected `sessionId` to be a function, got `x-session` (string)',
    ],
    [{ userId: 7 }, TypeError, 'Expected `userId` to be a function, got `7` (number)'],
    [
      { sessionIdHeader: 'x session' },
      TypeError,
      'Expected `sessionIdHeader` to be an HTTP header name such as x-session-id, got `x session` (string)',
    ],
    [
      { userIdHeader: '' },
      TypeError,
      'Expected `userIdHeader` to be an HTTP header name such as x-session-id, got `` (string)',
    ],
    [
      { sessionId: () => 's', sessionIdHeader: 'x-s' },
      TypeError,
      '`sessionId` and `sessionIdHeader` cannot be combined: give one way to read the sessionId',
    ],
    [{ environment: ' ' }, TypeError, 'Expected `environment` to be a non-empty string, got ` ` (string)'],
    [{ appVersion: 2 }, TypeError, 'Expected `appVersion` to be a non-empty string, got `2` (number)'],
    [
      { maxCaptureBytes: 0 },
      RangeError,
      'Expected `maxCaptureBytes` to be an integer from 1 to 16777216, got `0` (number)',
    ],
    [
      { maxCaptureBytes: 1.5 },
      TypeError,
      'Expected `maxCaptureBytes` to be an integer from 1 to 16777216, got `1.5` (number)',
    ],
    [
      { maxCaptureBytes: '64k' },
      TypeError,
      'Expected `maxCaptureBytes` to be an integer from 1 to 16777216, got `64k` (string)',
    ],
    [
      { capture: (req: unknown) => req },
      TypeError,
      'Expected `capture` to be an object like { prompt: (req) => ..., response?: (body) => ... }, got a function',
    ],
    [
      { capture: { response: () => 'r' } },
      TypeError,
      "Expected `capture.prompt` to be a function returning the request's prompt, got `undefined` (undefined)",
    ],
    [
      { capture: { prompt: () => 'p', response: 'reply' } },
      TypeError,
      'Expected `capture.response` to be a function, got `reply` (string)',
    ],
    [{ capture: { prompt: () => 'p', responce: () => 'r' } }, TypeError, 'Unknown option `capture.responce`'],
    [
      { tracerProvider: {} },
      TypeError,
      'Expected `tracerProvider` to be an OpenTelemetry TracerProvider (with getTracer()), got an object',
    ],
  ];
  it.each(invalid)('rejects %j', (options, type, message) => {
    expect(build(options)).toThrow(type);
    expect(build(options)).toThrow(message);
  });

  it('rejects being mounted uncalled, as app.use(aqm)', () => {
    const misuse = aqm as unknown as (...args: unknown[]) => unknown;
    expect(() => misuse({ headers: {} }, {}, () => {})).toThrow(
      'aqm() takes one options object and returns the middleware: write app.use(aqm()), not app.use(aqm)',
    );
  });
});
