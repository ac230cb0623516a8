import {
  DEFAULT_PAGE_SIZE,
  expects,
  isoDateTimeSchema,
  limitSchema,
  MAX_PAGE_SIZE,
  pageSchema,
  paginationOf,
  paginationSchema,
  refineRange,
  uuidSchema,
} from '@aqm/wire';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { APP_ID } from './fixtures.js';
import { accepted, rejected } from './parse-helpers.js';

const DATE_TIME_MESSAGE = 'must be an ISO 8601 date-time, for example 2026-01-31T12:00:00Z';

describe('isoDateTimeSchema', () => {
  it('keeps a UTC timestamp, in the millisecond form', () => {
    expect(accepted(isoDateTimeSchema, '2026-01-31T12:00:00Z')).toBe('2026-01-31T12:00:00.000Z');
    expect(accepted(isoDateTimeSchema, '2026-01-31T12:00:00.123Z')).toBe('2026-01-31T12:00:00.123Z');
  });

  it('normalises an offset to UTC (Z)', () => {
    expect(accepted(isoDateTimeSchema, '2026-01-31T12:00:00+02:00')).toBe('2026-01-31T10:00:00.000Z');
    expect(accepted(isoDateTimeSchema, '2026-01-31T20:30:00-05:00')).toBe('2026-02-01T01:30:00.000Z');
    expect(accepted(isoDateTimeSchema, '2026-01-01T01:00:00.5+05:30')).toBe('2025-12-31T19:30:00.500Z');
  });

  it.each([
    ['a local time without offset', '2026-01-31T12:00:00'],
    ['a date without time', '2026-01-31'],
    ['an offset without colon', '2026-01-31T12:00:00+0200'],
    ['an impossible date', '2026-02-30T00:00:00Z'],
    ['free text', 'yesterday'],
    ['a number', 1769860800000],
  ])('rejects %s at $ naming the expected form', (_, value) => {
    expect(rejected(isoDateTimeSchema, value)).toEqual([{ path: '$', message: DATE_TIME_MESSAGE }]);
  });

  it('says "is required" when the value is missing', () => {
    expect(rejected(z.object({ at: isoDateTimeSchema }), {})).toEqual([
      { path: 'at', message: 'is required' },
    ]);
  });
});

describe('pageSchema and limitSchema', () => {
  const query = z.object({ page: pageSchema, limit: limitSchema });

  it('default to page 1 and the spec page size', () => {
    expect(accepted(query, {})).toEqual({ page: 1, limit: DEFAULT_PAGE_SIZE });
    expect(DEFAULT_PAGE_SIZE).toBe(20);
    expect(MAX_PAGE_SIZE).toBe(100);
  });

  it('coerce query-string values to numbers', () => {
    expect(accepted(query, { page: '3', limit: '100' })).toEqual({ page: 3, limit: 100 });
    expect(accepted(query, { page: 2, limit: 1 })).toEqual({ page: 2, limit: 1 });
  });

  it.each([['0'], ['-1'], ['1.5'], ['abc'], ['']])('reject page %j', (page) => {
    expect(rejected(query, { page })).toEqual([{ path: 'page', message: 'must be an integer >= 1' }]);
  });

  it.each([['0'], ['101'], ['2.5'], ['ten'], ['']])('reject limit %j', (limit) => {
    expect(rejected(query, { limit })).toEqual([
      { path: 'limit', message: 'must be an integer from 1 to 100' },
    ]);
  });
});

describe('refineRange', () => {
  const range = z
    .object({ start: isoDateTimeSchema.optional(), end: isoDateTimeSchema.optional() })
    .superRefine(refineRange);

  it('accepts end equal to or after start, comparing the normalised instants', () => {
    expect(accepted(range, { start: '2026-01-02T00:00:00+01:00', end: '2026-01-01T23:00:00Z' })).toEqual({
      start: '2026-01-01T23:00:00.000Z',
      end: '2026-01-01T23:00:00.000Z',
    });
    expect(accepted(range, { start: '2026-01-01T00:00:00Z', end: '2026-01-02T00:00:00Z' })).toBeTruthy();
  });

  it('accepts a range with either bound missing', () => {
    expect(accepted(range, { start: '2026-01-02T00:00:00Z' })).toEqual({ start: '2026-01-02T00:00:00.000Z' });
    expect(accepted(range, { end: '2026-01-02T00:00:00Z' })).toEqual({ end: '2026-01-02T00:00:00.000Z' });
  });

  it('reports end before start on end', () => {
    // 2026-01-01T23:30:00-01:00 is 2026-01-02T00:30Z: later as an instant, earlier as a string.
    expect(rejected(range, { start: '2026-01-02T01:00:00Z', end: '2026-01-01T23:30:00-01:00' })).toEqual([
      { path: 'end', message: 'must be on or after start' },
    ]);
  });
});

describe('uuidSchema', () => {
  it('accepts a UUID and rejects anything else', () => {
    expect(accepted(uuidSchema, APP_ID)).toBe(APP_ID);
    expect(rejected(uuidSchema, 'not-a-uuid')).toEqual([{ path: '$', message: 'must be a UUID' }]);
  });
});

describe('expects', () => {
  it('says "is required" for a missing value and the given message otherwise', () => {
    const message = expects('must be a string');
    expect(message({ input: undefined })).toBe('is required');
    expect(message({ input: 5 })).toBe('must be a string');
    expect(message({ input: null })).toBe('must be a string');
  });
});

describe('paginationOf', () => {
  it('computes totalPages from total and limit', () => {
    expect(paginationOf(2, 20, 41)).toEqual({ page: 2, limit: 20, total: 41, totalPages: 3 });
    expect(paginationOf(1, 20, 40)).toEqual({ page: 1, limit: 20, total: 40, totalPages: 2 });
    expect(paginationOf(1, 20, 0)).toEqual({ page: 1, limit: 20, total: 0, totalPages: 0 });
  });

  it('produces what paginationSchema accepts', () => {
    expect(accepted(paginationSchema, paginationOf(3, 7, 50))).toEqual(paginationOf(3, 7, 50));
    expect(rejected(paginationSchema, { page: 1, limit: 20, total: 1 }).map((e) => e.path)).toEqual([
      'totalPages',
    ]);
    expect(rejected(paginationSchema, { ...paginationOf(1, 20, 1), page: 1.5 }).map((e) => e.path)).toEqual([
      'page',
    ]);
  });
});
