import {
  evaluationTraceSchema,
  isoDateTimeSchema,
  listTracesQuerySchema,
  MAX_ATTRIBUTE_DEPTH,
  MAX_CONFIG_TEXT,
  MAX_METRICS,
  MAX_SEARCH_CHARS,
  MAX_VALIDATORS_PER_STAGE,
  MAX_WIDGET_TYPES,
  pageSchema,
  pathNestedDeeperThan,
  pathWithNul,
  pathWithPrototypeKey,
  updateGuardrailsBodySchema,
  updateMonitoringBodySchema,
  uuidParamSchema,
  widgetDataBodySchema,
} from '@aqm/wire';
import { describe, expect, it } from 'vitest';
import { accepted, rejected } from './parse-helpers.js';

const RANGE_MESSAGE = 'must be from 0000-01-01T00:00:00.000Z to 9999-12-31T23:59:59.999Z in UTC';

function nested(depth: number): unknown {
  let value: unknown = 'leaf';
  for (let i = 0; i < depth; i += 1) value = i % 2 === 0 ? { a: value } : [value];
  return value;
}

describe('dates outside the 4-digit years', () => {
  it.each(['9999-12-31T23:00:00-05:00', '9999-12-31T23:59:59.999-00:01', '0000-01-01T00:00:00+00:01'])(
    'refuses %s, whose UTC form is not 4-digit',
    (value) => {
      expect(rejected(isoDateTimeSchema, value)).toEqual([{ path: '$', message: RANGE_MESSAGE }]);
    },
  );

  it('keeps the extremes that stay in range', () => {
    expect(accepted(isoDateTimeSchema, '9999-12-31T23:59:59.999Z')).toBe('9999-12-31T23:59:59.999Z');
    expect(accepted(isoDateTimeSchema, '0000-01-01T00:00:00Z')).toBe('0000-01-01T00:00:00.000Z');
  });

  it('refuses widget data with a start past year 9999 against an end in 2026', () => {
    const errors = rejected(widgetDataBodySchema, {
      types: ['requests'],
      start: '9999-12-31T23:00:00-05:00',
      end: '2026-01-01T00:00:00Z',
    });
    expect(errors).toContainEqual({ path: 'start', message: RANGE_MESSAGE });
  });
});

describe('page and limit', () => {
  it.each(['0x10', '0b11', '0o7', '1e3', '+1', ' 1', '1 ', '1.0', '١'])('refuse page %j', (page) => {
    expect(rejected(pageSchema, page)).toEqual([{ path: '$', message: 'must be an integer >= 1' }]);
  });

  it('reads plain digits, and numbers from code', () => {
    expect(accepted(pageSchema, '12')).toBe(12);
    expect(accepted(pageSchema, 3)).toBe(3);
    expect(accepted(pageSchema, undefined)).toBe(1);
  });

  it('refuses a page past the largest', () => {
    expect(rejected(pageSchema, '9999999999')).toEqual([
      { path: '$', message: 'must be an integer from 1 to 1000000000' },
    ]);
  });
});

describe('span attribute depth', () => {
  const trace = (attributes: unknown) => ({
    traceId: 'a'.repeat(32),
    prompt: 'p',
    response: 'r',
    startTime: '2026-01-01T00:00:00Z',
    endTime: '2026-01-01T00:00:01Z',
    status: 'success',
    spans: [
      {
        spanId: 'b'.repeat(16),
        name: 's',
        kind: 'internal',
        startTime: '2026-01-01T00:00:00Z',
        endTime: '2026-01-01T00:00:01Z',
        status: { code: 'ok' },
        attributes,
      },
    ],
  });

  it(`accepts ${MAX_ATTRIBUTE_DEPTH} levels and refuses one more, naming the path`, () => {
    accepted(evaluationTraceSchema, trace({ deep: nested(MAX_ATTRIBUTE_DEPTH) }));
    const errors = rejected(evaluationTraceSchema, trace({ deep: nested(MAX_ATTRIBUTE_DEPTH + 1) }));
    expect(errors).toHaveLength(1);
    expect(errors[0]?.path).toMatch(/^spans\[0\]\.attributes\.deep(\.a|\[0\])+$/);
    expect(errors[0]?.message).toBe(`nests deeper than ${MAX_ATTRIBUTE_DEPTH} levels of objects and arrays`);
  });

  it('refuses 100,000 levels without overflowing the stack', () => {
    const errors = rejected(evaluationTraceSchema, trace({ deep: nested(100_000) }));
    expect(errors[0]?.path.split(/\.|\[/).length).toBeLessThan(MAX_ATTRIBUTE_DEPTH + 5);
    expect(pathNestedDeeperThan(nested(100_000), 3)).toEqual([0, 'a', 0, 'a']);
  });
});

describe('pathWithNul', () => {
  it('finds a NUL in values and keys, at any depth', () => {
    expect(pathWithNul({ a: ['x', 'y\u0000'] })).toEqual(['a', 1]);
    expect(pathWithNul({ a: { 'k\u0000': 1 } })).toEqual(['a', 'k\u0000']);
    expect(pathWithNul(nested(50_000))).toBeUndefined();
    expect(pathWithNul('plain')).toBeUndefined();
  });
});

describe('UUID path parameters', () => {
  it('are read case-insensitively (lower-cased)', () => {
    expect(accepted(uuidParamSchema, 'A1B2C3D4-E5F6-4711-8899-AABBCCDDEEFF')).toBe(
      'a1b2c3d4-e5f6-4711-8899-aabbccddeeff',
    );
  });
});

describe('configuration and query sizes', () => {
  it('bound validators per stage, metrics, texts, widget ids and search, naming the field', () => {
    const validators = Array.from({ length: MAX_VALIDATORS_PER_STAGE + 1 }, () => ({
      type: 'pii',
      on_fail: 'mask',
    }));
    expect(rejected(updateGuardrailsBodySchema, { input_validators: validators })).toEqual([
      { path: 'input_validators', message: `must hold at most ${MAX_VALIDATORS_PER_STAGE} validators` },
    ]);
    const metrics = Array.from({ length: MAX_METRICS + 1 }, () => ({ type: 'latency' }));
    expect(rejected(updateMonitoringBodySchema, { metrics })).toEqual([
      { path: 'metrics', message: `must hold at most ${MAX_METRICS} metrics` },
    ]);
    expect(
      rejected(updateMonitoringBodySchema, { securityPurpose: 'x'.repeat(MAX_CONFIG_TEXT + 1) }),
    ).toEqual([{ path: 'securityPurpose', message: `must be at most ${MAX_CONFIG_TEXT} characters` }]);
    const types = Array.from({ length: MAX_WIDGET_TYPES + 1 }, () => 'requests');
    expect(
      rejected(widgetDataBodySchema, { types, start: '2026-01-01T00:00:00Z', end: '2026-01-02T00:00:00Z' }),
    ).toEqual([{ path: 'types', message: `must hold at most ${MAX_WIDGET_TYPES} widget ids` }]);
    expect(rejected(listTracesQuerySchema, { search: 'x'.repeat(MAX_SEARCH_CHARS + 1) })).toEqual([
      { path: 'search', message: `must be at most ${MAX_SEARCH_CHARS} characters` },
    ]);
  });
});

describe('pathWithPrototypeKey', () => {
  it('finds __proto__ and constructor.prototype keys (as JSON.parse keeps them) at their path', () => {
    expect(pathWithPrototypeKey(JSON.parse('{"a":[1,{"__proto__":{"x":1}}]}'))).toEqual([
      'a',
      1,
      '__proto__',
    ]);
    expect(pathWithPrototypeKey(JSON.parse('{"b":{"constructor":{"prototype":{}}}}'))).toEqual([
      'b',
      'constructor',
    ]);
  });

  it('leaves plain keys alone, a constructor without prototype included', () => {
    expect(pathWithPrototypeKey(JSON.parse('{"constructor":"c","proto":1,"prototype":{}}'))).toBeUndefined();
    expect(pathWithPrototypeKey({ a: [1, 'x', null] })).toBeUndefined();
  });

  it('walks a value nested 100,000 levels without recursion', () => {
    const deep = JSON.parse(`${'{"a":'.repeat(100_000)}{"__proto__":1}${'}'.repeat(100_000)}`);
    expect(pathWithPrototypeKey(deep)?.length).toBe(100_001);
  });
});
