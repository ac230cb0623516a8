/**
 * Defensive serialisation of whatever a LangChain run carries (chain state, tool arguments and
 * results, provider metadata): never throws, survives cycles, BigInt, getters that throw and deep
 * nesting, and keeps the output near a character budget so one huge value cannot bloat a span.
 */

/** Limits of {@link toJsonSafe}. */
export interface JsonLimits {
  /** Rough bound on the characters of the serialised result. */
  maxChars: number;
  /** Nesting deeper than this is replaced by a marker. Default 8. */
  maxDepth?: number;
  /** Array items and object keys kept per level. Default 100. */
  maxItems?: number;
}

const TRUNCATION = '…[truncated]';

/**
 * Cuts `text` to `max` characters, with a visible marker saying how much was cut. Never splits
 * a surrogate pair.
 *
 * @example
 * truncateText('abcdef', 3); // 'abc…[truncated 3 chars]'
 */
export function truncateText(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = Math.max(0, max);
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}…[truncated ${text.length - end} chars]`;
}

/** Budget shared by one serialisation walk. */
interface Walk {
  remaining: number;
  maxDepth: number;
  maxItems: number;
  ancestors: object[];
}

function describeOpaque(value: object): string | undefined {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? 'Invalid Date' : value.toISOString();
  if (value instanceof RegExp) return String(value);
  if (ArrayBuffer.isView(value)) return `[${value.constructor.name} ${value.byteLength} bytes]`;
  if (value instanceof ArrayBuffer) return `[ArrayBuffer ${value.byteLength} bytes]`;
  if (value instanceof WeakMap || value instanceof WeakSet || value instanceof Promise) {
    return `[${value.constructor.name}]`;
  }
  return undefined;
}

function primitive(value: unknown, walk: Walk): unknown {
  switch (typeof value) {
    case 'string': {
      const kept = truncateText(value, Math.max(walk.remaining, 0));
      walk.remaining -= kept.length + 2;
      return kept;
    }
    case 'number':
      walk.remaining -= 8;
      return Number.isFinite(value) ? value : String(value);
    case 'bigint':
      walk.remaining -= 8;
      return value.toString();
    case 'boolean':
      walk.remaining -= 5;
      return value;
    case 'symbol':
      return value.toString();
    case 'function':
      return `[Function ${value.name || 'anonymous'}]`;
    default:
      return null;
  }
}

function entriesOf(value: object): Iterable<[string, unknown]> {
  if (value instanceof Map) return [...value.entries()].map(([k, v]) => [String(k), v] as [string, unknown]);
  if (value instanceof Error) {
    return [
      ['name', value.name],
      ['message', value.message],
    ];
  }
  return Object.keys(value).map((key): [string, unknown] => {
    try {
      return [key, (value as Record<string, unknown>)[key]];
    } catch {
      return [key, '[getter threw]'];
    }
  });
}

function walkValue(value: unknown, walk: Walk, depth: number): unknown {
  if (value === null || typeof value !== 'object') return primitive(value, walk);
  if (walk.remaining <= 0) return TRUNCATION;
  if (walk.ancestors.includes(value)) return '[Circular]';
  const opaque = describeOpaque(value);
  if (opaque !== undefined) return primitive(opaque, walk);
  const toJSON = (value as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === 'function' && !(value instanceof Map) && !(value instanceof Set)) {
    try {
      const converted: unknown = toJSON.call(value);
      if (converted !== value) return walkValue(converted, walk, depth);
    } catch {
      return '[toJSON threw]';
    }
  }
  if (depth >= walk.maxDepth) return Array.isArray(value) || value instanceof Set ? '[Array]' : '[Object]';
  walk.ancestors.push(value);
  try {
    if (Array.isArray(value) || value instanceof Set) {
      const items = Array.isArray(value) ? value : [...value];
      const out: unknown[] = [];
      for (const item of items) {
        if (out.length >= walk.maxItems || walk.remaining <= 0) {
          out.push(`…[${items.length - out.length} more items]`);
          break;
        }
        const converted = walkValue(item, walk, depth + 1);
        out.push(converted === undefined ? null : converted);
        walk.remaining -= 1;
      }
      return out;
    }
    const out: Record<string, unknown> = {};
    let kept = 0;
    for (const [key, item] of entriesOf(value)) {
      if (kept >= walk.maxItems || walk.remaining <= 0) {
        out['…'] = TRUNCATION;
        break;
      }
      if (item === undefined || typeof item === 'function' || typeof item === 'symbol') continue;
      walk.remaining -= key.length + 4;
      out[key] = walkValue(item, walk, depth + 1);
      kept += 1;
    }
    return out;
  } finally {
    walk.ancestors.pop();
  }
}

/**
 * A JSON-ready copy of `value`: cycles become `"[Circular]"`, BigInt a decimal string, non-finite
 * numbers strings, over-deep levels `"[Object]"`/`"[Array]"`, long strings and collections cut with
 * a marker once the budget is spent. Never throws.
 *
 * @example
 * const a: Record<string, unknown> = { n: 10n };
 * a.self = a;
 * JSON.stringify(toJsonSafe(a, { maxChars: 1000 })); // '{"n":"10","self":"[Circular]"}'
 */
export function toJsonSafe(value: unknown, limits: JsonLimits): unknown {
  try {
    return walkValue(
      value,
      {
        remaining: limits.maxChars,
        maxDepth: limits.maxDepth ?? 8,
        maxItems: limits.maxItems ?? 100,
        ancestors: [],
      },
      0,
    );
  } catch {
    return '[unserializable]';
  }
}

/**
 * `value` as JSON text of at most about `maxChars` characters (a string is returned as it is,
 * only cut). Never throws.
 *
 * @example
 * safeStringify({ city: 'Paris' }, 100); // '{"city":"Paris"}'
 */
export function safeStringify(value: unknown, maxChars: number): string {
  if (typeof value === 'string') return truncateText(value, maxChars);
  try {
    const text = JSON.stringify(toJsonSafe(value, { maxChars }));
    return truncateText(text ?? String(value), maxChars + TRUNCATION.length * 4);
  } catch {
    return '[unserializable]';
  }
}
