import type { HrTime } from '@opentelemetry/api';

// Readers of OTLP field values that take both encodings: protobufjs messages (ids as bytes,
// 64-bit integers as Long, only fields present on the wire as own properties) and OTLP/JSON (ids
// as hex strings, 64-bit integers as decimal strings or numbers, byte values as base64).

/** AnyValue nesting kept; deeper values become a marker (bounded work on hostile input). */
const MAX_DEPTH = 16;
const HEX_ID = /^[0-9a-fA-F]+$/;
const BASE64_ID = /^[A-Za-z0-9+/]+={0,2}$/;

type Fields = Record<string, unknown>;

function has(value: Fields, key: string): boolean {
  return Object.hasOwn(value, key);
}

/**
 * A trace or span id as lowercase hex, or `undefined` when absent, of the wrong length or all zero.
 *
 * @example
 * idHex(span.traceId, 16) // '4bf92f3577b34da6a3ce929d0e0e4736'
 */
export function idHex(value: unknown, bytes: 16 | 8): string | undefined {
  let hex: string;
  if (value instanceof Uint8Array) {
    if (value.length !== bytes) return undefined;
    hex = Buffer.from(value.buffer, value.byteOffset, value.length).toString('hex');
  } else if (typeof value === 'string') {
    if (value.length === bytes * 2 && HEX_ID.test(value)) hex = value.toLowerCase();
    // Some producers write ids in the generic protobuf-JSON way (base64) rather than OTLP's hex.
    else if (value.length === Math.ceil(bytes / 3) * 4 && BASE64_ID.test(value)) {
      const decoded = Buffer.from(value, 'base64');
      if (decoded.length !== bytes) return undefined;
      hex = decoded.toString('hex');
    } else return undefined;
  } else {
    return undefined;
  }
  return /[1-9a-f]/.test(hex) ? hex : undefined;
}

/** A 64-bit integer as a JS number (Long, number or decimal string); `undefined` when absent or malformed. */
export function int64(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string') {
    if (!/^-?\d{1,20}$/.test(value)) return undefined;
    return Number(value);
  }
  if (typeof value === 'object' && value !== null && 'low' in value && 'high' in value) {
    const { low, high, unsigned } = value as { low: unknown; high: unknown; unsigned?: unknown };
    // A Long from protobufjs; from JSON, an object of that shape is read only with numbers in it.
    if (typeof low !== 'number' || typeof high !== 'number') return undefined;
    return unsigned === true || high >= 0
      ? (high >>> 0) * 4_294_967_296 + (low >>> 0)
      : high * 4_294_967_296 + (low >>> 0);
  }
  return undefined;
}

/**
 * Nanoseconds since the epoch (fixed64) as an `HrTime`; `[0, 0]` when absent. A decimal string
 * (OTLP/JSON) is split exactly; a Long or number keeps about a quarter microsecond.
 */
export function nanosToHrTime(value: unknown): HrTime {
  if (typeof value === 'string' && /^\d{1,20}$/.test(value)) {
    const seconds = value.length > 9 ? Number(value.slice(0, -9)) : 0;
    return [seconds, Number(value.slice(-9))];
  }
  const nanos = int64(value);
  if (nanos === undefined || nanos <= 0) return [0, 0];
  const seconds = Math.floor(nanos / 1e9);
  return [seconds, Math.max(0, Math.min(999_999_999, Math.round(nanos - seconds * 1e9)))];
}

function primitive(value: unknown): value is string | number | boolean {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

/** An OTLP AnyValue as the JS value OpenTelemetry JS would hold (kvlist as a plain object). */
export function anyValue(value: unknown, depth = 0): unknown {
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Fields;
  // Only primitives are converted: String() or Number() of an object calls its methods, and an
  // object from JSON may have any (`{"toString": 1}` throws). OTLP/JSON shapes are checked on
  // decoding (json-request-check.ts); a value of another type reads as absent here.
  if (has(v, 'stringValue')) return primitive(v.stringValue) ? String(v.stringValue) : undefined;
  if (has(v, 'boolValue')) return v.boolValue === true;
  if (has(v, 'intValue')) return int64(v.intValue);
  if (has(v, 'doubleValue')) return primitive(v.doubleValue) ? Number(v.doubleValue) : undefined;
  if (depth >= MAX_DEPTH) return '[nested too deep]';
  if (has(v, 'arrayValue')) {
    const values = (v.arrayValue as Fields | null)?.values;
    return Array.isArray(values) ? values.map((item) => anyValue(item, depth + 1)) : [];
  }
  if (has(v, 'kvlistValue')) return keyValues((v.kvlistValue as Fields | null)?.values, depth + 1);
  if (has(v, 'bytesValue')) {
    const bytes = v.bytesValue;
    if (bytes instanceof Uint8Array) return bytes;
    return typeof bytes === 'string' ? new Uint8Array(Buffer.from(bytes, 'base64')) : undefined;
  }
  return undefined;
}

/**
 * A list of KeyValue as an attributes object. A `__proto__` key is dropped (it would set the
 * object's prototype); a repeated key keeps its last value, as the SDKs do.
 */
export function keyValues(list: unknown, depth = 0): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!Array.isArray(list)) return out;
  for (const item of list) {
    if (typeof item !== 'object' || item === null) continue;
    const key = (item as Fields).key;
    if (typeof key !== 'string' || key === '__proto__') continue;
    const converted = anyValue((item as Fields).value, depth);
    if (converted !== undefined) out[key] = converted;
  }
  return out;
}

/** An integer field that may be absent (0), a number, or a JSON string. */
export function smallInt(value: unknown): number {
  if (typeof value === 'number') return Number.isInteger(value) ? value : 0;
  if (typeof value === 'string' && /^\d{1,10}$/.test(value)) return Number(value);
  return 0;
}

/** A string field that may be absent. */
export function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}
