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

/** What {@link DecodeBudget} counts. */
export type CountedKind = 'resources' | 'scopes' | 'items' | 'events' | 'attributes' | 'arrayValues';

const LABELS: Record<CountedKind, string> = {
  resources: 'resource entries',
  scopes: 'scope entries',
  items: 'items',
  events: 'span events',
  attributes: 'attributes (key-value pairs at any level)',
  arrayValues: 'array value elements',
};

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
  readonly #counts: Record<CountedKind, number> = {
    resources: 0,
    scopes: 0,
    items: 0,
    events: 0,
    attributes: 0,
    arrayValues: 0,
  };

  constructor(itemName: 'spans' | 'log records') {
    this.#items = itemName;
  }

  /** Counts one element of `kind`. */
  count(kind: CountedKind): void {
    this.#counts[kind] += 1;
    if (this.#counts[kind] > DECODE_LIMITS[kind]) {
      const what = kind === 'items' ? this.#items : LABELS[kind];
      throw limitError(what, `DECODE_LIMITS.${kind}`, DECODE_LIMITS[kind]);
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
