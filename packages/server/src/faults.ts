import { type RouteName, routes } from '@aqm/wire';
import { describeValue } from './describe-value.js';

/**
 * One way to misbehave. A request matching `route` (any route when omitted) is hit with
 * probability `rate`; a hit request waits `latencyMs`, then either answers `status` (with
 * `Retry-After` when `retryAfter` is given), resets the connection (`reset`), never answers
 * (`hang`), or, with only `latencyMs`, goes on to be served normally.
 */
export interface FaultRule {
  /** The route to affect, by its name in the wire route table (e.g. `'evaluations.submit'`). */
  route?: RouteName;
  /** Share of matching requests hit, 0..1. Default 1. */
  rate?: number;
  /** Answer this status (400..599) with the error envelope instead of serving the request. */
  status?: number;
  /** `Retry-After` of the answer: seconds (integer >= 0) or an HTTP date. Needs `status`. */
  retryAfter?: number | string;
  /** Wait this long (ms) before the fault's effect or before serving normally. */
  latencyMs?: number;
  /** Destroy the connection (TCP reset) without answering. */
  reset?: boolean;
  /** Never answer; the socket stays open until the client gives up or the server closes. */
  hang?: boolean;
}

/** The `faults` option: rules tried in order (the first hit applies) and the PRNG seed. */
export interface FaultsConfig {
  /** Seed of the PRNG that decides which requests a `rate` hits. Default 1. */
  seed?: number;
  rules: FaultRule[];
}

const RULE_KEYS = new Set(['route', 'rate', 'status', 'retryAfter', 'latencyMs', 'reset', 'hang']);
const ROUTE_NAMES = Object.keys(routes) as RouteName[];

/**
 * Checks a `faults` value and returns a normalised copy (defaults filled in).
 * @throws TypeError or RangeError naming the field, the rule and the value.
 */
export function checkFaults(value: unknown, label = 'faults'): Required<FaultsConfig> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new TypeError(`${label} must be an object { seed?, rules }, got ${describeValue(value)}`);
  }
  const { seed = 1, rules, ...rest } = value as Record<string, unknown>;
  const unknownKey = Object.keys(rest)[0];
  if (unknownKey !== undefined) {
    throw new TypeError(`${label}.${unknownKey} is not a known option (known: seed, rules)`);
  }
  if (typeof seed !== 'number' || !Number.isInteger(seed)) {
    throw new TypeError(`${label}.seed must be an integer, got ${describeValue(seed)}`);
  }
  if (!Array.isArray(rules)) {
    throw new TypeError(`${label}.rules must be an array of fault rules, got ${describeValue(rules)}`);
  }
  return { seed, rules: rules.map((rule: unknown, i) => checkRule(rule, `${label}.rules[${i}]`)) };
}

function checkRule(value: unknown, at: string): FaultRule {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new TypeError(`${at} must be an object, got ${describeValue(value)}`);
  }
  const rule = value as Record<string, unknown>;
  for (const key of Object.keys(rule)) {
    if (!RULE_KEYS.has(key)) {
      throw new TypeError(`${at}.${key} is not a known option (known: ${[...RULE_KEYS].join(', ')})`);
    }
  }
  const { route, rate = 1, status, retryAfter, latencyMs, reset, hang } = rule;
  if (route !== undefined && !ROUTE_NAMES.includes(route as RouteName)) {
    throw new TypeError(
      `${at}.route must be a route name (${ROUTE_NAMES.join(', ')}), got ${describeValue(route)}`,
    );
  }
  if (typeof rate !== 'number' || !(rate >= 0 && rate <= 1)) {
    throw new RangeError(`${at}.rate must be a number from 0 to 1, got ${describeValue(rate)}`);
  }
  if (
    status !== undefined &&
    (typeof status !== 'number' || !Number.isInteger(status) || status < 400 || status > 599)
  ) {
    throw new RangeError(`${at}.status must be an integer from 400 to 599, got ${describeValue(status)}`);
  }
  if (retryAfter !== undefined) checkRetryAfter(retryAfter, status, at);
  if (
    latencyMs !== undefined &&
    (typeof latencyMs !== 'number' || !Number.isFinite(latencyMs) || latencyMs < 0)
  ) {
    throw new RangeError(`${at}.latencyMs must be a finite number >= 0, got ${describeValue(latencyMs)}`);
  }
  for (const [name, flag] of [
    ['reset', reset],
    ['hang', hang],
  ] as const) {
    if (flag !== undefined && typeof flag !== 'boolean') {
      throw new TypeError(`${at}.${name} must be a boolean, got ${describeValue(flag)}`);
    }
  }
  const effects = [
    status !== undefined && 'status',
    reset === true && 'reset',
    hang === true && 'hang',
  ].filter((e): e is string => typeof e === 'string');
  if (effects.length > 1)
    throw new TypeError(`${at} must have at most one of status, reset, hang; got ${effects.join(', ')}`);
  if (effects.length === 0 && latencyMs === undefined) {
    throw new TypeError(`${at} must have an effect: status, reset, hang or latencyMs`);
  }
  const checked: FaultRule = { rate };
  if (route !== undefined) checked.route = route as RouteName;
  if (status !== undefined) checked.status = status as number;
  if (retryAfter !== undefined) checked.retryAfter = retryAfter as number | string;
  if (latencyMs !== undefined) checked.latencyMs = latencyMs;
  if (reset === true) checked.reset = true;
  if (hang === true) checked.hang = true;
  return checked;
}

function checkRetryAfter(retryAfter: unknown, status: unknown, at: string): void {
  if (status === undefined) throw new TypeError(`${at}.retryAfter needs a status to answer with`);
  const seconds = typeof retryAfter === 'number' && Number.isInteger(retryAfter) && retryAfter >= 0;
  const date =
    typeof retryAfter === 'string' && (/^\d+$/.test(retryAfter) || !Number.isNaN(Date.parse(retryAfter)));
  if (!seconds && !date) {
    throw new TypeError(
      `${at}.retryAfter must be an integer number of seconds >= 0 or an HTTP date string, got ${describeValue(retryAfter)}`,
    );
  }
}
