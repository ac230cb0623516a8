import { describe, expect, it } from 'vitest';
import { anyValue, idHex, int64, keyValues, nanosToHrTime } from '../src/otlp/otlp-values.js';

describe('OTLP value readers (protobufjs messages and OTLP/JSON alike)', () => {
  it('reads ids from bytes, hex and base64, and refuses wrong lengths and all-zero ids', () => {
    const bytes = Uint8Array.from({ length: 16 }, (_, i) => i + 1);
    const hex = Buffer.from(bytes).toString('hex');
    expect(idHex(bytes, 16)).toBe(hex);
    expect(idHex(hex.toUpperCase(), 16)).toBe(hex);
    expect(idHex(Buffer.from(bytes).toString('base64'), 16)).toBe(hex);
    expect(idHex(new Uint8Array(16), 16)).toBeUndefined();
    expect(idHex('0'.repeat(32), 16)).toBeUndefined();
    expect(idHex(bytes.subarray(0, 8), 16)).toBeUndefined();
    expect(idHex('zz'.repeat(8), 8)).toBeUndefined();
    expect(idHex(undefined, 8)).toBeUndefined();
  });

  it('splits nanosecond times exactly from strings and closely from Long or number', () => {
    expect(nanosToHrTime('1795721060337163382')).toEqual([1_795_721_060, 337_163_382]);
    expect(nanosToHrTime('42')).toEqual([0, 42]);
    const long = { low: 0x5f5e_1000 | 0, high: 0x18e7_0000, unsigned: true };
    const [seconds, nanos] = nanosToHrTime(long);
    expect(seconds * 1e9 + nanos).toBeCloseTo(0x18e7_0000 * 4_294_967_296 + (0x5f5e_1000 >>> 0), -4);
    expect(nanosToHrTime(undefined)).toEqual([0, 0]);
    expect(nanosToHrTime('not a number')).toEqual([0, 0]);
    expect(int64('-12')).toBe(-12);
    expect(int64('12abc')).toBeUndefined();
  });

  it('turns AnyValue into JS values, bounding nesting and dropping __proto__', () => {
    const kv = (key: string, value: object) => ({ key, value });
    const attributes = keyValues([
      kv('s', { stringValue: 'text' }),
      kv('b', { boolValue: true }),
      kv('i', { intValue: '7' }),
      kv('d', { doubleValue: 0.5 }),
      kv('a', { arrayValue: { values: [{ stringValue: 'x' }, { intValue: 2 }] } }),
      kv('m', { kvlistValue: { values: [kv('content', { stringValue: 'hi' })] } }),
      kv('bytes', { bytesValue: Buffer.from('abc').toString('base64') }),
      kv('__proto__', { kvlistValue: { values: [kv('polluted', { boolValue: true })] } }),
      kv('empty', {}),
      { value: { stringValue: 'no key' } },
    ]);
    expect(attributes).toEqual({
      s: 'text',
      b: true,
      i: 7,
      d: 0.5,
      a: ['x', 2],
      m: { content: 'hi' },
      bytes: new Uint8Array(Buffer.from('abc')),
    });
    expect(Object.getPrototypeOf(attributes)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();

    let deep: object = { stringValue: 'bottom' };
    for (let i = 0; i < 100; i += 1) deep = { arrayValue: { values: [deep] } };
    let value = anyValue(deep);
    let depth = 0;
    while (Array.isArray(value)) {
      value = value[0];
      depth += 1;
    }
    expect(depth).toBe(16);
    expect(value).toBe('[nested too deep]');
  });
});
