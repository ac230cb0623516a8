import type { ResolvedOptions } from '../options.js';
import type { ReadableSpan } from '../sdk-types.js';
import { describeApiKey, describeUrl } from './redact.js';

/** Attribute keys a skipped trace's line lists at most. */
export const MAX_KEYS_SHOWN = 20;
/** Longest attribute key shown whole; longer ones are cut with `…`. */
export const MAX_KEY_CHARS = 64;
/** Trace ids a line about several traces lists at most. */
export const MAX_IDS_SHOWN = 5;

/** `text` cut to `max` characters, with `…` when something was cut. */
export function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/**
 * The distinct attribute keys of `spans` (span attributes only, not the resource's), at most
 * {@link MAX_KEYS_SHOWN}, each cut to {@link MAX_KEY_CHARS}, and how many more there were.
 *
 * @example
 * attributeKeysSeen(spans); // 'http.method, http.route, db.system (+2 more)'
 */
export function attributeKeysSeen(spans: readonly ReadableSpan[]): string {
  const keys = new Set<string>();
  let more = 0;
  for (const span of spans) {
    let attributes: object | undefined;
    try {
      attributes = span.attributes;
    } catch {
      continue;
    }
    if (typeof attributes !== 'object' || attributes === null) continue;
    for (const key of Object.keys(attributes)) {
      if (keys.has(key)) continue;
      if (keys.size < MAX_KEYS_SHOWN) keys.add(key);
      else more += 1;
    }
  }
  if (keys.size === 0) return '(none)';
  const shown = [...keys].map((key) => cut(key, MAX_KEY_CHARS)).join(', ');
  return more === 0 ? shown : `${shown} (+${more} more)`;
}

/** Up to {@link MAX_IDS_SHOWN} trace ids, and how many more. */
export function idList(ids: readonly string[]): string {
  if (ids.length === 0) return '';
  const shown = ids.slice(0, MAX_IDS_SHOWN).join(', ');
  return ids.length > MAX_IDS_SHOWN ? `${shown} (+${ids.length - MAX_IDS_SHOWN} more)` : shown;
}

function optional(value: string | undefined): string {
  return value === undefined ? '-' : cut(value, 80);
}

/**
 * The resolved configuration of a pipeline, as one debug line: where traces go (the key
 * redacted), the queue and batch bounds, the disk, sampling and the hooks that are set.
 *
 * @example
 * configLine(options, 'abc-uuid'); // 'config: endpoint=http://127.0.0.1:4000 application=abc-uuid apiKey=set (redacted) ...'
 */
export function configLine(options: ResolvedOptions, application: string): string {
  const endpoint = options.client === undefined ? describeUrl(options.baseUrl) : '(set on the client given)';
  const apiKey = options.client === undefined ? describeApiKey(options.apiKey) : '(set on the client given)';
  const parts = [
    `endpoint=${endpoint}`,
    `application=${application}`,
    `apiKey=${apiKey}`,
    `sampleRate=${options.sampleRate}`,
    `persistDir=${options.persistDir ?? 'off'}`,
    ...(options.persistDir === undefined ? [] : [`maxDiskBytes=${options.maxDiskBytes}`]),
    `maxQueueTraces=${options.maxQueueTraces}`,
    `maxQueueBytes=${options.maxQueueBytes}`,
    `maxBatchTraces=${options.maxBatchTraces}`,
    `maxBatchBytes=${options.maxBatchBytes}`,
    // Serverless: no timer sends or completes a trace; the flush does.
    ...(options.serverless ? ['serverless=on'] : [`batchDelayMs=${options.batchDelayMs}`]),
    `concurrency=${options.concurrency}`,
    `maxRetryElapsedMs=${options.maxRetryElapsedMs}`,
    `requestTimeoutMs=${options.requestTimeoutMs}`,
    ...(options.serverless ? [] : [`traceIdleMs=${options.traceIdleMs}`]),
    `maxOpenTraces=${options.maxOpenTraces}`,
    `maxValueChars=${options.maxValueChars}`,
    `shutdownTimeoutMs=${options.shutdownTimeoutMs}`,
    `mask=${options.mask === undefined ? 'off' : 'on'}`,
    `shouldExport=${options.shouldExport === undefined ? 'off' : 'on'}`,
    `environment=${optional(options.environment)}`,
    `appVersion=${optional(options.appVersion)}`,
  ];
  return `config: ${parts.join(' ')}`;
}
