import { alert, aqmDiag } from '../diag.js';
import { describeValue } from '../option-checks.js';
import { charBoundary } from '../privacy/text-sanitizer.js';
import {
  type AqmMetadataValue,
  MAX_ID_CHARS,
  MAX_LABEL_CHARS,
  MAX_METADATA_KEYS,
  MAX_TAGS,
  type TraceAttributes,
} from './names.js';

/**
 * Who a trace is for and what else describes it, as given to `withAqmAttributes()` and
 * `withLlmSpan()`. `undefined` or `null` leaves a field out (say `userId: req.user?.id` for an
 * anonymous request).
 */
export interface AqmAttributes {
  /** The end user (record `userId`); at most 256 characters are kept. */
  userId?: string | null | undefined;
  /** The session or conversation (record `sessionId`); at most 256 characters are kept. */
  sessionId?: string | null | undefined;
  /** Flat entries for the record's `metadata`: at most 64, keys of at most 200 characters. */
  metadata?: Readonly<Record<string, AqmMetadataValue>> | null | undefined;
  /** Labels of the trace, merged over its spans: at most 64, each at most 200 characters. */
  tags?: readonly string[] | null | undefined;
}

/**
 * Says that a value was cut: data the app gave is lost, so it shows on stderr when no logging is
 * set up (see `alert`), at most once per caller and option (`userId`, `metadata`, `tags`) every
 * 5 minutes there; the kind leaves the key or index out, so that request data cannot grow it.
 */
function note(caller: string, field: string, problem: string): void {
  const option = field.split(/[.[]/, 1)[0];
  alert(aqmDiag, 'warn', `${caller}:${option}`, `${caller}: \`${field}\` ${problem}`);
}

function fail(field: string, expectation: string, value: unknown): never {
  throw new TypeError(`Expected \`${field}\` to be ${expectation}, got ${describeValue(value)}`);
}

/** A string cut to `max` characters (never splitting a surrogate pair), with a note when cut. */
function bounded(caller: string, field: string, text: string, max: number): string {
  if (text.length <= max) return text;
  note(caller, field, `cut to ${max} characters (it had ${text.length})`);
  return text.slice(0, charBoundary(text, max));
}

function id(caller: string, field: string, value: unknown): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string') fail(field, 'a string', value);
  return bounded(caller, field, value, MAX_ID_CHARS);
}

function metadata(caller: string, value: unknown): Record<string, AqmMetadataValue> | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value))
    fail('metadata', 'an object of strings, numbers and booleans', value);
  const out: Record<string, AqmMetadataValue> = {};
  let kept = 0;
  let left = 0;
  for (const [key, entry] of Object.entries(value)) {
    const field = `metadata.${key}`;
    if (typeof entry === 'number' ? !Number.isFinite(entry) : !['string', 'boolean'].includes(typeof entry))
      fail(field, 'a string, a finite number or a boolean', entry);
    if (key === '') fail('metadata', 'an object without an empty key', value);
    if (kept >= MAX_METADATA_KEYS) {
      left += 1;
      continue;
    }
    out[bounded(caller, field, key, MAX_LABEL_CHARS)] = entry as AqmMetadataValue;
    kept += 1;
  }
  if (left > 0) note(caller, 'metadata', `has more than ${MAX_METADATA_KEYS} entries: ${left} left out`);
  return kept === 0 ? undefined : out;
}

function tags(caller: string, value: unknown): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) fail('tags', 'an array of strings', value);
  const out: string[] = [];
  value.forEach((tag: unknown, index) => {
    if (typeof tag !== 'string' || tag === '') fail(`tags[${index}]`, 'a non-empty string', tag);
    const kept = bounded(caller, `tags[${index}]`, tag, MAX_LABEL_CHARS);
    if (!out.includes(kept)) out.push(kept);
  });
  if (out.length > MAX_TAGS) {
    note(caller, 'tags', `has more than ${MAX_TAGS} tags: ${out.length - MAX_TAGS} left out`);
    out.length = MAX_TAGS;
  }
  return out.length === 0 ? undefined : out;
}

/**
 * Checks what the app gave (`caller` names the function in notes): a wrong type throws a
 * `TypeError` naming the field (`userId`, `metadata.plan`, `tags[2]`); a value beyond a bound is
 * cut (ids at 256 characters, keys and tags at 200, at most 64 entries and 64 tags) with a
 * throttled `diag` warning naming it, since ids often come from a request.
 */
export function checkTraceAttributes(caller: string, given: AqmAttributes): TraceAttributes {
  const out: {
    userId?: string;
    sessionId?: string;
    metadata?: Record<string, AqmMetadataValue>;
    tags?: string[];
  } = {};
  const userId = id(caller, 'userId', given.userId);
  if (userId !== undefined) out.userId = userId;
  const sessionId = id(caller, 'sessionId', given.sessionId);
  if (sessionId !== undefined) out.sessionId = sessionId;
  const entries = metadata(caller, given.metadata);
  if (entries !== undefined) out.metadata = entries;
  const labels = tags(caller, given.tags);
  if (labels !== undefined) out.tags = labels;
  return out;
}
