import type { HrTime } from '@opentelemetry/api';
import { noteNotJson } from '../notices.js';
import type { ReadableSpan, SpanAttributes } from '../sdk-types.js';
import { AttributeKeys } from './attribute-keys.js';
import { parseJsonLoose } from './json.js';
import type { LlmLogRecord } from './llm-log-record.js';
import { messagesFrom, messagesFromValue } from './message-parsing.js';
import type { Message } from './messages.js';

/** HrTime → epoch milliseconds; `undefined` for a missing or malformed time. */
export function hrTimeToMs(time: HrTime | undefined): number | undefined {
  if (!Array.isArray(time)) return undefined;
  const ms = time[0] * 1e3 + time[1] / 1e6;
  return Number.isFinite(ms) ? ms : undefined;
}

/** The parent span id of a span: 2.x `parentSpanContext`, else 1.x `parentSpanId`. */
export function parentSpanIdOf(span: ReadableSpan): string | undefined {
  const fromContext = span.parentSpanContext?.spanId;
  if (typeof fromContext === 'string' && fromContext !== '') return fromContext;
  const legacy = (span as { parentSpanId?: unknown }).parentSpanId;
  return typeof legacy === 'string' && legacy !== '' ? legacy : undefined;
}

/**
 * A finished span as the mapping reads it: typed attribute getters, JSON parsed at most once per
 * attribute, messages extracted at most once per attribute, its joined log records.
 */
export class SpanView {
  readonly span: ReadableSpan;
  readonly attributes: SpanAttributes;
  readonly spanId: string;
  readonly parentSpanId: string | undefined;
  readonly startMs: number;
  readonly endMs: number;
  readonly logs: LlmLogRecord[] = [];
  /** Ancestors of this span within its trace (0 for a span whose parent is not in the trace). */
  depth = 0;
  // Caches are created on first use: a span that carries no content (HTTP, DB) needs few of them.
  #keys: AttributeKeys | undefined;
  #json: Map<string, unknown> | undefined;
  #messages: Map<string, Message[] | undefined> | undefined;
  #memo: Map<string, unknown> | undefined;

  constructor(span: ReadableSpan, fallbackMs: number) {
    this.span = span;
    this.attributes = span.attributes ?? {};
    this.spanId = span.spanContext().spanId;
    this.parentSpanId = parentSpanIdOf(span);
    this.startMs = hrTimeToMs(span.startTime) ?? fallbackMs;
    this.endMs = Math.max(this.startMs, hrTimeToMs(span.endTime) ?? this.startMs);
  }

  /**
   * The attribute keys, listed once: every convention scans them for prefixes. Not kept when the
   * listing throws, so every caller meets the same error as if it listed them itself.
   */
  get keys(): AttributeKeys {
    this.#keys ??= new AttributeKeys(Object.keys(this.attributes));
    return this.#keys;
  }

  /** The raw attribute value. */
  get(key: string): unknown {
    return this.attributes[key] ?? undefined;
  }

  /** A non-empty string attribute. */
  str(key: string): string | undefined {
    const value = this.attributes[key];
    return typeof value === 'string' && value !== '' ? value : undefined;
  }

  /**
   * A finite number attribute (numeric strings accepted, as some producers stringify counts, and
   * bigints, as an int64 may arrive); callers check the range they need.
   */
  num(key: string): number | undefined {
    const value: unknown = this.attributes[key];
    if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
    if (typeof value === 'bigint') return Number(value);
    if (typeof value === 'string' && value.trim() !== '') {
      const parsed = Number(value);
      return Number.isFinite(parsed) ? parsed : undefined;
    }
    return undefined;
  }

  /** A string attribute parsed as JSON, once; `undefined` when absent or not JSON. */
  json(key: string): unknown {
    this.#json ??= new Map();
    const cache = this.#json;
    if (cache.has(key)) return cache.get(key);
    const raw = this.attributes[key];
    const parsed = typeof raw === 'string' ? parseJsonLoose(raw) : undefined;
    cache.set(key, parsed);
    return parsed;
  }

  /**
   * Messages of an attribute, extracted once: JSON is parsed (once), a non-JSON string is plain
   * text, and a JSON document holding no messages is kept whole as text.
   */
  messages(key: string): Message[] | undefined {
    this.#messages ??= new Map();
    const cache = this.#messages;
    if (cache.has(key)) return cache.get(key);
    const messages = this.#extractMessages(key);
    cache.set(key, messages);
    return messages;
  }

  #extractMessages(key: string): Message[] | undefined {
    const raw = this.attributes[key];
    if (typeof raw !== 'string')
      return raw === undefined || raw === null ? undefined : messagesFromValue(raw);
    if (raw.trim() === '') return undefined;
    const parsed = this.json(key);
    if (parsed === undefined && key.startsWith('gen_ai.') && key.endsWith('.messages')) noteNotJson(key);
    if (parsed === undefined || typeof parsed === 'string') {
      return [{ role: undefined, text: typeof parsed === 'string' ? parsed : raw }];
    }
    return messagesFrom(parsed) ?? [{ role: undefined, text: raw }];
  }

  /** Memoises a value derived from this span (readers combining several attributes or logs). */
  memo<T>(key: string, compute: () => T): T {
    this.#memo ??= new Map();
    const cache = this.#memo;
    if (cache.has(key)) return cache.get(key) as T;
    const value = compute();
    cache.set(key, value);
    return value;
  }
}
