import type { HrTime } from '@opentelemetry/api';
import type { ReadableSpan, SpanAttributes } from '../sdk-types.js';
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
  readonly #json = new Map<string, unknown>();
  readonly #messages = new Map<string, Message[] | undefined>();
  readonly #memo = new Map<string, unknown>();

  constructor(span: ReadableSpan, fallbackMs: number) {
    this.span = span;
    this.attributes = span.attributes ?? {};
    this.spanId = span.spanContext().spanId;
    this.parentSpanId = parentSpanIdOf(span);
    this.startMs = hrTimeToMs(span.startTime) ?? fallbackMs;
    this.endMs = Math.max(this.startMs, hrTimeToMs(span.endTime) ?? this.startMs);
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

  /** A finite number attribute (numeric strings accepted, as some producers stringify counts). */
  num(key: string): number | undefined {
    const value = this.attributes[key];
    if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
    if (typeof value === 'string' && value.trim() !== '') {
      const parsed = Number(value);
      return Number.isFinite(parsed) ? parsed : undefined;
    }
    return undefined;
  }

  /** A string attribute parsed as JSON, once; `undefined` when absent or not JSON. */
  json(key: string): unknown {
    if (this.#json.has(key)) return this.#json.get(key);
    const raw = this.attributes[key];
    const parsed = typeof raw === 'string' ? parseJsonLoose(raw) : undefined;
    this.#json.set(key, parsed);
    return parsed;
  }

  /**
   * Messages of an attribute, extracted once: JSON is parsed (once), a non-JSON string is plain
   * text, and a JSON document holding no messages is kept whole as text.
   */
  messages(key: string): Message[] | undefined {
    if (this.#messages.has(key)) return this.#messages.get(key);
    const messages = this.#extractMessages(key);
    this.#messages.set(key, messages);
    return messages;
  }

  #extractMessages(key: string): Message[] | undefined {
    const raw = this.attributes[key];
    if (typeof raw !== 'string')
      return raw === undefined || raw === null ? undefined : messagesFromValue(raw);
    if (raw.trim() === '') return undefined;
    const parsed = this.json(key);
    if (parsed === undefined || typeof parsed === 'string') {
      return [{ role: undefined, text: typeof parsed === 'string' ? parsed : raw }];
    }
    return messagesFrom(parsed) ?? [{ role: undefined, text: raw }];
  }

  /** Memoises a value derived from this span (readers combining several attributes or logs). */
  memo<T>(key: string, compute: () => T): T {
    if (this.#memo.has(key)) return this.#memo.get(key) as T;
    const value = compute();
    this.#memo.set(key, value);
    return value;
  }
}
