import {
  AqmAuthenticationError,
  AqmConflictError,
  AqmConnectionError,
  AqmInputError,
  AqmNotFoundError,
  AqmRateLimitError,
  AqmServerError,
  AqmTimeoutError,
  AqmValidationError,
} from '@aqm/client';
import { describe, expect, it } from 'vitest';
import { describeError, redact } from '../src/describe-error.js';
import { collectList } from '../src/list-paging.js';
import { CliFailure, CliUsageError } from '../src/usage-error.js';

const req = { method: 'GET', path: '/applications/3f0c/traces' };

describe('describeError', () => {
  it('401: check the key', () => {
    const r = describeError(
      new AqmAuthenticationError('x', { ...req, status: 401, body: { message: 'Invalid API key' } }),
    );
    expect(r).toEqual({
      lines: ['The service refused the API key (401). Check --api-key or AQM_API_KEY.'],
      exitCode: 1,
    });
  });

  it('404: the application id', () => {
    const r = describeError(
      new AqmNotFoundError('x', { ...req, status: 404, body: { success: false, message: 'Not found' } }),
    );
    expect(r.lines[0]).toBe(
      'Not found (404): Not found (application 3f0c). Check the application id (aqm apps list shows them) and the other ids given.',
    );
    expect(r.exitCode).toBe(1);
  });

  it('404 on a route without an application id: the base URL and its path prefix', () => {
    const r = describeError(
      new AqmNotFoundError('x', {
        method: 'GET',
        path: '/applications',
        status: 404,
        body: { success: false, message: 'Route GET /applications not found' },
      }),
      { baseUrl: 'http://127.0.0.1:4000' },
    );
    expect(r.lines).toEqual([
      "Not found (404): Route GET /applications not found (GET /applications). Check --base-url or AQM_BASE_URL (now http://127.0.0.1:4000): it includes the service's path prefix, e.g. http://127.0.0.1:4000/api.",
    ]);
    expect(r.exitCode).toBe(1);
  });

  it('409: the name is taken', () => {
    const r = describeError(
      new AqmConflictError('x', {
        method: 'POST',
        path: '/applications',
        status: 409,
        body: { message: 'Name "a" exists' },
      }),
    );
    expect(r.lines[0]).toMatch(/^The name is taken \(409\): Name "a" exists\. Choose another name/);
  });

  it('400: the summary, then one line per field', () => {
    const r = describeError(
      new AqmValidationError('x', {
        ...req,
        status: 400,
        body: { message: 'Validation failed' },
        errors: [{ path: 'limit', message: 'must be an integer' }],
      }),
    );
    expect(r.lines).toEqual([
      'The service rejected the request (400): Validation failed. Fix the fields below.',
      '  limit: must be an integer',
    ]);
  });

  it('429, 5xx, timeouts and connection failures are service errors with what to do', () => {
    expect(
      describeError(new AqmRateLimitError('x', { ...req, status: 429, retryAfterMs: 2500 })).lines[0],
    ).toBe('The service is rate limiting requests (429). Try again in 3 s.');
    expect(
      describeError(new AqmServerError('x', { ...req, status: 503, body: { message: 'down' } })).lines[0],
    ).toBe('The service failed (503): down. Try again later.');
    const refused = new AqmConnectionError('x', {
      ...req,
      cause: Object.assign(new Error('c'), { code: 'ECONNREFUSED' }),
    });
    expect(describeError(refused, { baseUrl: 'http://127.0.0.1:9/api' })).toEqual({
      lines: [
        'Could not reach the service at http://127.0.0.1:9/api (ECONNREFUSED). Check --base-url or AQM_BASE_URL and that the service is running.',
      ],
      exitCode: 1,
    });
    expect(describeError(new AqmTimeoutError('x', { ...req, timeoutMs: 100 })).lines[0]).toMatch(
      /^No answer from the service within 100 ms/,
    );
  });

  it('input and usage errors exit 2', () => {
    const input = new AqmInputError('x', {
      ...req,
      errors: [{ path: 'applicationId', message: 'must not be empty' }],
    });
    expect(describeError(input)).toEqual({
      lines: ['Invalid input: applicationId must not be empty. Nothing was sent.'],
      exitCode: 2,
    });
    expect(describeError(new CliUsageError('bad', ['  detail']))).toEqual({
      lines: ['bad', '  detail'],
      exitCode: 2,
    });
    expect(describeError(new CliFailure('rejected'))).toEqual({ lines: ['rejected'], exitCode: 1 });
    expect(describeError(new TypeError('baseUrl must be http')).exitCode).toBe(2);
  });

  it('redact removes every occurrence of the key', () => {
    expect(redact('key sk-1 and sk-1', 'sk-1')).toBe('key [redacted] and [redacted]');
    expect(redact('text', undefined)).toBe('text');
  });

  it('redact leaves words that only contain a short key whole', () => {
    const line =
      'Could not reach the service at http://127.0.0.1:9/api (ECONNREFUSED). Check --base-url or AQM_BASE_URL.';
    for (const key of ['k', 'e', 'base', 'AQM', 'ur']) expect(redact(line, key)).toBe(line);
    expect(redact('Invalid key k. Check it', 'k')).toBe('Invalid key [redacted]. Check it');
  });
});

/** A fake list of `total` numbered items that records the pages asked for. */
function fakeList(total: number) {
  const calls: Array<[number, number]> = [];
  const fetchPage = async (page: number, limit: number) => {
    calls.push([page, limit]);
    const start = (page - 1) * limit;
    const items = Array.from({ length: Math.max(0, Math.min(limit, total - start)) }, (_, i) => start + i);
    return { items, total };
  };
  return { calls, fetchPage };
}

describe('collectList', () => {
  it('shows 20 by default and hints at the rest', async () => {
    const { calls, fetchPage } = fakeList(45);
    const list = await collectList({}, fetchPage);
    expect(list.items).toHaveLength(20);
    expect(calls).toEqual([[1, 20]]);
    expect(list.hint).toBe('Showing 20 of 45; use --limit N or --all for more.');
  });

  it('pages automatically up to --limit, 100 per page', async () => {
    const { calls, fetchPage } = fakeList(250);
    const list = await collectList({ limit: 150 }, fetchPage);
    expect(list.items).toEqual(Array.from({ length: 150 }, (_, i) => i));
    expect(calls).toEqual([
      [1, 100],
      [2, 100],
    ]);
  });

  it('--all fetches every page, and stops on the last', async () => {
    const { calls, fetchPage } = fakeList(201);
    const list = await collectList({ all: true }, fetchPage);
    expect(list.items).toHaveLength(201);
    expect(calls.map(([page]) => page)).toEqual([1, 2, 3]);
    expect(list.hint).toBeUndefined();
  });

  it('--page fetches exactly that page of --limit items', async () => {
    const { calls, fetchPage } = fakeList(45);
    const list = await collectList({ page: 2, limit: 10 }, fetchPage);
    expect(list.items).toEqual([10, 11, 12, 13, 14, 15, 16, 17, 18, 19]);
    expect(calls).toEqual([[2, 10]]);
    expect(list.hint).toBe('Page 2 of 5 (45 in all); next: --page 3');
    await expect(collectList({ page: 1, limit: 101 }, fetchPage)).rejects.toThrow(
      '--limit must be at most 100 with --page.',
    );
    await expect(collectList({ page: 1, all: true }, fetchPage)).rejects.toThrow(CliUsageError);
  });
});
