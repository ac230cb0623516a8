import { describe, expect, it } from 'vitest';
import { checkApiKeys } from '../src/auth.js';
import { checkAppOptions, checkListenOptions } from '../src/options.js';

const apiKeys = [{ key: 'k', projectId: 'p' }];

describe('checkAppOptions', () => {
  it('fills in the defaults', () => {
    expect(checkAppOptions({ apiKeys })).toEqual({
      apiKeys: [{ key: 'k', projectId: 'p', revoked: false }],
      prefix: '/api',
      dataDir: undefined,
      faults: null,
      logger: false,
      requestTimeoutMs: 60_000,
      maxRequestsInProgress: 16,
    });
  });

  it('normalises the prefix', () => {
    expect(checkAppOptions({ apiKeys, prefix: '/v1/' }).prefix).toBe('/v1');
    expect(checkAppOptions({ apiKeys, prefix: '/' }).prefix).toBe('');
    expect(checkAppOptions({ apiKeys, prefix: '' }).prefix).toBe('');
  });

  it.each([
    [undefined, /options must be an object/],
    [{ apiKeys, port: 1, colour: 'red' }, /options\.colour is not a known option/],
    [{ apiKeys, prefix: 'api' }, /options\.prefix must be '' or a path like '\/api'.*got "api"/],
    [{ apiKeys, prefix: '/a b' }, /options\.prefix must be/],
    [{ apiKeys, dataDir: '' }, /options\.dataDir must be a non-empty directory path, got ""/],
    [{ apiKeys, logger: 'yes' }, /options\.logger must be a boolean, got "yes"/],
    [{ apiKeys, faults: { rules: [{}] } }, /options\.faults\.rules\[0\] must have an effect/],
    [{}, /options\.apiKeys must be a non-empty array/],
    [
      { apiKeys, maxRequestsInProgress: 0 },
      /options\.maxRequestsInProgress must be an integer from 1 to 10000, got 0/,
    ],
    [{ apiKeys, maxRequestsInProgress: 2.5 }, /options\.maxRequestsInProgress must be an integer/],
  ])('refuses %j', (value, message) => {
    expect(() => checkAppOptions(value)).toThrow(message);
  });
});

describe('checkApiKeys', () => {
  it.each([
    [[{ key: 'a', projectId: '' }], /apiKeys\[0\]\.projectId must be a non-empty string, got ""/],
    [
      [{ key: 42, projectId: 'p' }],
      /apiKeys\[0\]\.key must be a non-empty string of visible ASCII characters \(no whitespace, no non-ASCII\), got 42/,
    ],
    // A header cannot carry these reliably, so such a key could never authenticate.
    [
      [{ key: 'clé-secrète', projectId: 'p' }],
      /apiKeys\[0\]\.key must be .*visible ASCII.*, got a string of 11 characters/,
    ],
    [[{ key: 'key\u00a0x', projectId: 'p' }], /apiKeys\[0\]\.key must be .*visible ASCII/],
    [[{ key: 'k\u0000', projectId: 'p' }], /apiKeys\[0\]\.key must be .*visible ASCII/],
    [[{ key: 'a', projectId: 'p', revoked: 'no' }], /apiKeys\[0\]\.revoked must be a boolean/],
    [
      [
        { key: 'a', projectId: 'p' },
        { key: 'a', projectId: 'q' },
      ],
      /apiKeys\[1\]\.key is the same key as apiKeys\[0\]\.key/,
    ],
    [['a'], /apiKeys\[0\] must be an object/],
  ])('refuses %j', (value, message) => {
    expect(() => checkApiKeys(value)).toThrow(message);
  });

  it('does not echo a malformed key', () => {
    expect(() => checkApiKeys([{ key: 'my secret', projectId: 'p' }])).toThrow(
      'got a string of 9 characters',
    );
  });
});

describe('checkListenOptions', () => {
  it('defaults to a free port on loopback', () => {
    expect(checkListenOptions({})).toEqual({ port: 0, host: '127.0.0.1' });
  });
  it.each([
    [{ port: -1 }, /port must be an integer from 0 to 65535, got -1/],
    [{ port: 1.5 }, /port must be an integer from 0 to 65535, got 1\.5/],
    [{ port: '80' }, /port must be an integer from 0 to 65535, got "80"/],
    [{ host: '' }, /host must be a non-empty host name or address, got ""/],
  ])('refuses %j', (value, message) => {
    expect(() => checkListenOptions(value)).toThrow(message);
  });
});
