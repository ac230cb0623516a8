import { OtlpDecodeError } from './decode-error.js';
import { COUNTED, type DecodeBudget } from './decode-limits.js';

// Checks a parsed OTLP/JSON request before the forwarder reads it: counts its elements against the
// decode limits (as the protobuf walk does) and checks the shape of every KeyValue and AnyValue, so
// a value of the wrong type (an object where a string belongs, `{"toString": 1}`) is a 400 naming
// where it is, never a value that reaches code calling methods on it. Other fields keep their
// lenient reading (`otlp-values.ts`): a span with a malformed id is counted in `partial_success`.

type Fields = Record<string, unknown>;

const INT64 = /^-?\d{1,20}$/;
const DOUBLE = /^(?:-?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?|NaN|-?Infinity)$/;

function isObject(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function absent(value: unknown): boolean {
  return value === undefined || value === null;
}

function isInt64(value: unknown): boolean {
  return typeof value === 'number' ? Number.isInteger(value) : typeof value === 'string' && INT64.test(value);
}

function isDouble(value: unknown): boolean {
  return typeof value === 'number' || (typeof value === 'string' && DOUBLE.test(value));
}

function list(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [];
}

function member(value: unknown, key: string): unknown {
  return isObject(value) && Object.hasOwn(value, key) ? value[key] : undefined;
}

class JsonCheck {
  /** Where the check is, built into a string only for an error message. */
  readonly #path: (string | number)[] = [];
  readonly #budget: DecodeBudget;

  constructor(budget: DecodeBudget) {
    this.#budget = budget;
  }

  #malformed(expected: string): OtlpDecodeError {
    const path = this.#path.map((part) => (typeof part === 'number' ? `[${part}]` : `.${part}`)).join('');
    return new OtlpDecodeError(
      `The body is not a valid OTLP/JSON export request: ${path.slice(1)} is not ${expected}`,
    );
  }

  #member(name: string, expected: string): never {
    this.#path.push(name);
    throw this.#malformed(expected);
  }

  keyValues(value: unknown, key: string, depth: number): void {
    if (value === undefined || value === null) return;
    this.#path.push(key);
    if (!Array.isArray(value)) throw this.#malformed('a list of key-values');
    for (let i = 0; i < value.length; i += 1) {
      this.#budget.count(COUNTED.attributes);
      const item: unknown = value[i];
      this.#path.push(i);
      if (!isObject(item)) throw this.#malformed('a key-value object');
      if (typeof item.key !== 'string') {
        this.#path.push('key');
        throw this.#malformed('a string');
      }
      this.anyValue(item.value, 'value', depth + 1);
      this.#path.pop();
    }
    this.#path.pop();
  }

  anyValue(value: unknown, key: string | number, depth: number): void {
    if (value === undefined || value === null) return;
    this.#path.push(key);
    this.#budget.checkAnyValueDepth(depth);
    if (!isObject(value)) throw this.#malformed('an AnyValue object');
    // Plain reads: JSON.parse makes own properties only, and the prototype has none of these names.
    const v = value;
    if (!absent(v.stringValue) && typeof v.stringValue !== 'string') this.#member('stringValue', 'a string');
    if (!absent(v.boolValue) && typeof v.boolValue !== 'boolean') this.#member('boolValue', 'a boolean');
    if (!absent(v.intValue) && !isInt64(v.intValue)) {
      this.#member('intValue', 'an integer or a decimal string');
    }
    if (!absent(v.doubleValue) && !isDouble(v.doubleValue)) {
      this.#member('doubleValue', 'a number or a numeric string');
    }
    if (!absent(v.bytesValue) && typeof v.bytesValue !== 'string')
      this.#member('bytesValue', 'a base64 string');
    if (!absent(v.arrayValue) && !isObject(v.arrayValue)) this.#member('arrayValue', 'an object');
    if (!absent(v.kvlistValue) && !isObject(v.kvlistValue)) this.#member('kvlistValue', 'an object');
    const array = member(value, 'arrayValue');
    if (array !== undefined && array !== null) {
      this.#path.push('arrayValue', 'values');
      const values = (array as Fields).values;
      if (values !== undefined && values !== null && !Array.isArray(values)) throw this.#malformed('a list');
      const items = list(values);
      for (let i = 0; i < items.length; i += 1) {
        this.#budget.count(COUNTED.arrayValues);
        this.anyValue(items[i], i, depth + 1);
      }
      this.#path.pop();
      this.#path.pop();
    }
    const kvlist = member(value, 'kvlistValue');
    if (kvlist !== undefined && kvlist !== null) {
      this.#path.push('kvlistValue');
      this.keyValues((kvlist as Fields).values, 'values', depth);
      this.#path.pop();
    }
    this.#path.pop();
  }

  /** Checks `value.attributes` of a resource, scope, span, event or log record. */
  attributesOf(value: unknown, key: string | undefined): void {
    const attributes = member(value, 'attributes');
    if (attributes === undefined || attributes === null) return;
    if (key !== undefined) this.#path.push(key);
    this.keyValues(attributes, 'attributes', 0);
    if (key !== undefined) this.#path.pop();
  }

  request(listKey: 'resourceSpans' | 'resourceLogs', resources: readonly unknown[]): void {
    const traces = listKey === 'resourceSpans';
    const scopesKey = traces ? 'scopeSpans' : 'scopeLogs';
    const itemsKey = traces ? 'spans' : 'logRecords';
    this.#path.push(listKey);
    for (let r = 0; r < resources.length; r += 1) {
      this.#budget.count(COUNTED.resources);
      const resource = resources[r];
      this.#path.push(r);
      this.attributesOf(member(resource, 'resource'), 'resource');
      const scopes = list(member(resource, scopesKey));
      this.#path.push(scopesKey);
      for (let s = 0; s < scopes.length; s += 1) {
        this.#budget.count(COUNTED.scopes);
        this.#path.push(s);
        this.attributesOf(member(scopes[s], 'scope'), 'scope');
        const items = list(member(scopes[s], itemsKey));
        this.#path.push(itemsKey);
        for (let i = 0; i < items.length; i += 1) this.item(items[i], i, traces);
        this.#path.pop();
        this.#path.pop();
      }
      this.#path.pop();
      this.#path.pop();
    }
    this.#path.pop();
  }

  item(item: unknown, index: number, traces: boolean): void {
    this.#budget.count(COUNTED.items);
    this.#path.push(index);
    this.attributesOf(item, undefined);
    if (!traces) this.anyValue(member(item, 'body'), 'body', 1);
    const events = traces ? list(member(item, 'events')) : [];
    this.#path.push('events');
    for (let e = 0; e < events.length; e += 1) {
      this.#budget.count(COUNTED.events);
      this.#path.push(e);
      this.attributesOf(events[e], undefined);
      this.#path.pop();
    }
    this.#path.pop();
    this.#path.pop();
  }
}

/**
 * Checks the parsed `resourceSpans`/`resourceLogs` of an OTLP/JSON request: throws
 * {@link OtlpDecodeError} (413 past a decode limit, 400 for a malformed key-value or AnyValue).
 *
 * @example
 * checkJsonRequest('resourceSpans', parsed.resourceSpans, new DecodeBudget('spans'));
 */
export function checkJsonRequest(
  listKey: 'resourceSpans' | 'resourceLogs',
  resources: readonly unknown[],
  budget: DecodeBudget,
): void {
  new JsonCheck(budget).request(listKey, resources);
}
