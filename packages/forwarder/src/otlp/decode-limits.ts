import { OtlpDecodeError } from './decode-error.js';

/**
 * How much one export request may hold, counted while it is checked and before its objects are
 * built, so a hostile body is refused after little work (bounded CPU and memory per request). Each
 * is a few times what a full SDK batch holds (512 spans of up to 128 attributes, their events).
 */
export const DECODE_LIMITS = {
  /** `resourceSpans` / `resourceLogs` entries. */
  resources: 1024,
  /** `scopeSpans` / `scopeLogs` entries, all resources together. */
  scopes: 4096,
  /** Spans (traces) or log records (logs). */
  items: 16_384,
  /** Span events. */
  events: 65_536,
  /** Key-value pairs at every level: resource, scope, span, event, log record, inside kvlists. */
  attributes: 131_072,
  /** Elements of array values, at every level. */
  arrayValues: 131_072,
  /** AnyValue nesting (an array or kvlist inside another); past it the request is malformed. */
  anyValueDepth: 32,
  /** OTLP/JSON nesting of objects and arrays, checked before the JSON is parsed. */
  jsonDepth: 128,
  /** OTLP/JSON values (objects, arrays and the items in them), counted before the JSON is parsed. */
  jsonValues: 1_048_576,
} as const;

/** What {@link DecodeBudget} counts, as indexes (the walks count per element: kept cheap). */
export const COUNTED = {
  resources: 0,
  scopes: 1,
  items: 2,
  events: 3,
  attributes: 4,
  arrayValues: 5,
} as const;
/** One of {@link COUNTED}. */
export type CountedKind = (typeof COUNTED)[keyof typeof COUNTED];

const COUNTED_NAMES = ['resources', 'scopes', 'items', 'events', 'attributes', 'arrayValues'] as const;
const LABELS = [
  'resource entries',
  'scope entries',
  'items',
  'span events',
  'attributes (key-value pairs at any level)',
  'array value elements',
] as const;

/** The 413 of a request past a count limit, naming it and its value. */
export function limitError(what: string, limitName: string, limit: number): OtlpDecodeError {
  return new OtlpDecodeError(
    `The request has more than ${limit} ${what}, the limit per request (${limitName}); send smaller batches`,
    413,
  );
}

/** The 400 of a request nested deeper than a limit, naming it and its value. */
export function depthError(what: string, limitName: string, limit: number): OtlpDecodeError {
  return new OtlpDecodeError(
    `The request nests ${what} deeper than ${limit} levels, the limit (${limitName})`,
    400,
  );
}

/**
 * Counts the elements of one request against {@link DECODE_LIMITS}; throws the
 * {@link OtlpDecodeError} (413) of the first limit passed, so counting stops there.
 */
export class DecodeBudget {
  readonly #items: string;
  /** What is left of each limit, by {@link COUNTED} index. */
  readonly #left = Int32Array.from(COUNTED_NAMES, (name) => DECODE_LIMITS[name]);

  constructor(itemName: 'spans' | 'log records') {
    this.#items = itemName;
  }

  /** Counts one element of `kind` (a {@link COUNTED} index). */
  count(kind: CountedKind): void {
    const left = (this.#left[kind] as number) - 1;
    this.#left[kind] = left;
    if (left < 0) {
      const name = COUNTED_NAMES[kind];
      const what = kind === COUNTED.items ? this.#items : LABELS[kind];
      throw limitError(what, `DECODE_LIMITS.${name}`, DECODE_LIMITS[name]);
    }
  }

  /** Checks the nesting of an AnyValue (1 for an attribute's value, 2 for an item of its array, ...). */
  checkAnyValueDepth(depth: number): void {
    if (depth > DECODE_LIMITS.anyValueDepth) {
      throw depthError(
        'values (arrays and kvlists)',
        'DECODE_LIMITS.anyValueDepth',
        DECODE_LIMITS.anyValueDepth,
      );
    }
  }
}
