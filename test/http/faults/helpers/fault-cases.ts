import {
  AqmApiError,
  AqmAuthenticationError,
  AqmConnectionError,
  AqmNotFoundError,
  AqmServerError,
  AqmValidationError,
} from '@aqm/client';
import type { DropReason } from '@aqm/otel';
import type { FaultRule } from '@aqm/server';
import { MAX_TRACES_PER_SUBMISSION } from '@aqm/wire';
import type { ProxyInterceptor } from '../../otel/helpers/recording-proxy.js';

/** The words that mark the one trace of a batch the 400 case makes the service reject. */
export const POISON = 'poison pill';

/** What a rule does when it hits (its route and rate are the harness's). */
export type FaultEffect = Omit<FaultRule, 'route' | 'rate'>;

/** How the service (or the network in front of it) misbehaves on `POST .../evaluations`. */
export type FaultSetup =
  /** `effect` hits the n-th submission when `hits[n]` is true (seeded), or every one (`'every'`). */
  | { kind: 'rule'; effect: FaultEffect; hits: readonly boolean[] | 'every' }
  /** A port that was listened on, then closed. */
  | { kind: 'refused' }
  /** A proxy between the sender and the service that changes or answers requests. */
  | { kind: 'proxy'; intercept: ProxyInterceptor }
  /** `rules` until the service has seen `requests` submissions, then no faults. */
  | { kind: 'outage'; seed: number; rules: FaultRule[]; requests: number };

export interface FaultCase {
  name: string;
  /** Called when the case starts (`startedAt`, epoch ms): the fault and the earliest time delivery may happen. */
  fault: (startedAt: number) => { setup: FaultSetup; notBefore?: number };
  /** Time limit of one request, exporter and client. */
  requestTimeoutMs?: number;
  /** The exporter's retry budget per batch. */
  maxRetryElapsedMs?: number;
  /** The client's retries, when the default is too few to outlast the fault. */
  clientMaxRetries?: number;
  /** The exporter's traces per request, when the case wants several batches. */
  maxBatchTraces?: number;
  exporter: {
    /** Which produced traces the service must hold afterwards, each once. */
    delivered: 'all' | 'all-but-poison' | 'none';
    dropped?: { reason: DropReason; count: 'all' | number };
    /** Submissions the service received, when the case fixes it. */
    requests?: number;
    /** `stats().retries`; `'requests-1'`: every submission after the first was a retry (one batch). */
    retries?: number | 'requests-1';
    /**
     * How the case ends: `forceFlush()`; `flush-then-probe` for a 401/404 that passes: the flush
     * returns at the first one (delivery is known impossible for now), then the paused sender's
     * probes deliver everything once the service answers; or `shutdown()` for a fault that nothing
     * but a fix ends (401).
     */
    end: 'flush' | 'flush-then-probe' | 'shutdown';
    /** The one `diag.error` that says what to fix (401/404 pause). */
    pauseError?: RegExp;
  };
  client: {
    /** The exact error class the call rejects with; none: it resolves and the batch is stored. */
    error?: new (
      ...args: never[]
    ) => Error;
    status?: number;
    /** Attempts the service received, when the case fixes it. */
    attempts?: number;
  };
}

const TRANSIENT_ONCE = [true, false];
/** The request timeout of the hang case: the hung request is given up after it. */
const HANG_TIMEOUT_MS = 1000;
const TRANSIENT_TWICE = [true, true, false];

/** An HTTP date (whole seconds) at least `ms` from `now`, and its time. */
function httpDateAfter(now: number, ms: number): { header: string; at: number } {
  const at = Math.ceil((now + ms) / 1000) * 1000;
  return { header: new Date(at).toUTCString(), at };
}

/** Pads a batch holding the poisoned trace past the submission limit: a real 400 at `traces`, naming no trace. */
const rejectPoisonedBatches: ProxyInterceptor = (body) => {
  const parsed = JSON.parse(body.toString('utf8')) as { traces: Array<{ prompt: string }> };
  if (!parsed.traces.some((trace) => trace.prompt.includes(POISON))) return { forward: body };
  const padded = Array.from(
    { length: MAX_TRACES_PER_SUBMISSION + 1 },
    (_, i) => parsed.traces[i % parsed.traces.length],
  );
  return { forward: Buffer.from(JSON.stringify({ traces: padded })) };
};

/**
 * The fault matrix, run once for the exporter and once for the client. The client retries only
 * 429, 502, 503, 504 and connection failures (500 is not retried); the exporter retries any 5xx.
 */
export const FAULT_CASES: readonly FaultCase[] = [
  {
    name: '500 on the first two requests',
    fault: () => ({ setup: { kind: 'rule', effect: { status: 500 }, hits: TRANSIENT_TWICE } }),
    exporter: { delivered: 'all', requests: 3, retries: 2, end: 'flush' },
    client: { error: AqmServerError, status: 500, attempts: 1 },
  },
  {
    name: '502 on the first request',
    fault: () => ({ setup: { kind: 'rule', effect: { status: 502 }, hits: TRANSIENT_ONCE } }),
    exporter: { delivered: 'all', requests: 2, retries: 1, end: 'flush' },
    client: { attempts: 2 },
  },
  {
    name: '503 on every request',
    fault: () => ({ setup: { kind: 'rule', effect: { status: 503 }, hits: 'every' } }),
    exporter: {
      delivered: 'none',
      dropped: { reason: 'retries-exhausted', count: 'all' },
      retries: 'requests-1',
      end: 'flush',
    },
    client: { error: AqmServerError, status: 503, attempts: 4 },
  },
  {
    name: '504 on the first two requests',
    fault: () => ({ setup: { kind: 'rule', effect: { status: 504 }, hits: TRANSIENT_TWICE } }),
    exporter: { delivered: 'all', requests: 3, retries: 2, end: 'flush' },
    client: { attempts: 3 },
  },
  {
    name: '429 with Retry-After in seconds on the first request',
    fault: (startedAt) => ({
      setup: { kind: 'rule', effect: { status: 429, retryAfter: 1 }, hits: TRANSIENT_ONCE },
      notBefore: startedAt + 1000,
    }),
    maxRetryElapsedMs: 5000,
    exporter: { delivered: 'all', requests: 2, retries: 1, end: 'flush' },
    client: { attempts: 2 },
  },
  {
    name: '429 with Retry-After as an HTTP date on the first request',
    fault: (startedAt) => {
      const date = httpDateAfter(startedAt, 1000);
      return {
        setup: { kind: 'rule', effect: { status: 429, retryAfter: date.header }, hits: TRANSIENT_ONCE },
        notBefore: date.at,
      };
    },
    maxRetryElapsedMs: 5000,
    exporter: { delivered: 'all', requests: 2, retries: 1, end: 'flush' },
    client: { attempts: 2 },
  },
  {
    name: 'connection refused (a port listened on, then closed)',
    fault: () => ({ setup: { kind: 'refused' } }),
    exporter: {
      delivered: 'none',
      dropped: { reason: 'retries-exhausted', count: 'all' },
      end: 'flush',
    },
    client: { error: AqmConnectionError },
  },
  {
    name: 'connection reset mid-request on the first request',
    fault: () => ({ setup: { kind: 'rule', effect: { reset: true }, hits: TRANSIENT_ONCE } }),
    exporter: { delivered: 'all', requests: 2, retries: 1, end: 'flush' },
    client: { attempts: 2 },
  },
  {
    name: 'a hang past the request timeout on the first request',
    fault: (startedAt) => ({
      setup: { kind: 'rule', effect: { hang: true }, hits: TRANSIENT_ONCE },
      notBefore: startedAt + HANG_TIMEOUT_MS,
    }),
    // Long enough that the retry, served normally, never times out on a busy machine.
    requestTimeoutMs: HANG_TIMEOUT_MS,
    exporter: { delivered: 'all', requests: 2, retries: 1, end: 'flush' },
    client: { attempts: 2 },
  },
  {
    name: 'slow responses (300 ms) within the request timeout',
    fault: (startedAt) => ({
      setup: { kind: 'rule', effect: { latencyMs: 300 }, hits: 'every' },
      notBefore: startedAt + 300,
    }),
    exporter: { delivered: 'all', requests: 1, retries: 0, end: 'flush' },
    client: { attempts: 1 },
  },
  {
    name: '400 at `traces` (no index) for every batch holding one bad trace',
    fault: () => ({ setup: { kind: 'proxy', intercept: rejectPoisonedBatches } }),
    exporter: {
      delivered: 'all-but-poison',
      dropped: { reason: 'rejected', count: 1 },
      retries: 0,
      end: 'flush',
    },
    client: { error: AqmValidationError, status: 400, attempts: 1 },
  },
  {
    name: '413 on the first request',
    fault: () => ({ setup: { kind: 'rule', effect: { status: 413 }, hits: [true, false, false] } }),
    exporter: { delivered: 'all', requests: 3, retries: 0, end: 'flush' },
    client: { error: AqmApiError, status: 413, attempts: 1 },
  },
  {
    name: '401 on every request',
    fault: () => ({ setup: { kind: 'rule', effect: { status: 401 }, hits: 'every' } }),
    exporter: {
      delivered: 'none',
      dropped: { reason: 'shutdown', count: 'all' },
      end: 'shutdown',
      pauseError: /401.*AQM_API_KEY/,
    },
    client: { error: AqmAuthenticationError, status: 401, attempts: 1 },
  },
  {
    name: '404 on the first two requests',
    fault: () => ({ setup: { kind: 'rule', effect: { status: 404 }, hits: TRANSIENT_TWICE } }),
    exporter: {
      delivered: 'all',
      requests: 3,
      retries: 2,
      end: 'flush-then-probe',
      pauseError: /404.*AQM_APPLICATION_ID/,
    },
    client: { error: AqmNotFoundError, status: 404, attempts: 1 },
  },
  {
    name: 'an outage (502, 503, resets) for 6 requests, then recovery',
    fault: () => ({
      setup: {
        kind: 'outage',
        seed: 11,
        rules: [
          { route: 'evaluations.submit', rate: 0.4, status: 503 },
          { route: 'evaluations.submit', rate: 0.5, reset: true },
          { route: 'evaluations.submit', status: 502 },
        ],
        requests: 6,
      },
    }),
    maxRetryElapsedMs: 10_000,
    clientMaxRetries: 50,
    // Three batches, two in flight at once.
    maxBatchTraces: 2,
    exporter: { delivered: 'all', end: 'flush' },
    client: {},
  },
];
