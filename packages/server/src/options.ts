import { type ApiKey, checkApiKeys } from './auth.js';
import { describeValue } from './describe-value.js';
import { checkFaults, type FaultsConfig } from './faults.js';

/** Options of {@link buildApp}: the service without a listening socket. */
export interface AppOptions {
  /** The keys the service accepts, each belonging to one project. At least one. */
  apiKeys: ApiKey[];
  /** Path prefix of every route; `{base_url}` ends with it. Default `'/api'`; `''` for none. */
  prefix?: string;
  /** Directory of the database file (`<dataDir>/aqm.sqlite`, created if missing). Default: in memory. */
  dataDir?: string;
  /** Fault rules to start with (see {@link FaultRule}); `null` or omitted for none. */
  faults?: FaultsConfig | null;
  /** fastify's request logging to stdout. Default `false`. */
  logger?: boolean;
  /**
   * Longest time a client may take to send one request, head and body, in ms: past it the request
   * is answered 408 and its connection closed, so a body that never ends cannot hold a socket.
   * Default 60000 (1 minute).
   */
  requestTimeoutMs?: number;
  /**
   * Requests in progress at once (received and not yet answered), shared fairly between the
   * projects that have requests in progress: each may have its share (this divided by their
   * number; a lone project has all of it), and a request past it is answered 429 with
   * `Retry-After` before its body is read, so one project's flood cannot make the others wait.
   * A project with nothing in progress is always admitted. Default 16.
   */
  maxRequestsInProgress?: number;
}

/** Options of {@link startServer}. */
export interface StartServerOptions extends AppOptions {
  /** Port to listen on; `0` (the default) picks a free one. */
  port?: number;
  /** Interface to listen on. Default `'127.0.0.1'`. */
  host?: string;
}

/** {@link AppOptions} after checks, defaults filled in. */
export interface CheckedAppOptions {
  apiKeys: ApiKey[];
  prefix: string;
  dataDir: string | undefined;
  faults: FaultsConfig | null;
  logger: boolean;
  requestTimeoutMs: number;
  maxRequestsInProgress: number;
}

/** Default of `requestTimeoutMs`: enough for a 5 MiB body on a slow link. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;

/**
 * Default of `maxRequestsInProgress`: enough to keep the scoring workers and the event loop busy
 * (more only waits in line), and at most 80 MiB of 5 MiB bodies held at once.
 */
export const DEFAULT_MAX_REQUESTS_IN_PROGRESS = 16;

const KNOWN = new Set([
  'apiKeys',
  'prefix',
  'dataDir',
  'faults',
  'logger',
  'requestTimeoutMs',
  'maxRequestsInProgress',
  'port',
  'host',
]);

/**
 * Checks the options of `buildApp`/`startServer`.
 * @throws TypeError or RangeError naming the option, the rule and the value.
 */
export function checkAppOptions(options: unknown, label = 'options'): CheckedAppOptions {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new TypeError(`${label} must be an object with at least apiKeys, got ${describeValue(options)}`);
  }
  const value = options as Record<string, unknown>;
  for (const key of Object.keys(value)) {
    if (!KNOWN.has(key))
      throw new TypeError(`${label}.${key} is not a known option (known: ${[...KNOWN].join(', ')})`);
  }
  const {
    prefix = '/api',
    dataDir,
    faults,
    logger = false,
    requestTimeoutMs = DEFAULT_REQUEST_TIMEOUT_MS,
    maxRequestsInProgress = DEFAULT_MAX_REQUESTS_IN_PROGRESS,
  } = value;
  if (typeof prefix !== 'string' || !/^(\/[A-Za-z0-9._~-]+)*\/?$/.test(prefix)) {
    throw new TypeError(
      `${label}.prefix must be '' or a path like '/api' (segments of letters, digits, . _ ~ -), got ${describeValue(prefix)}`,
    );
  }
  if (dataDir !== undefined && (typeof dataDir !== 'string' || dataDir === '')) {
    throw new TypeError(`${label}.dataDir must be a non-empty directory path, got ${describeValue(dataDir)}`);
  }
  if (typeof logger !== 'boolean')
    throw new TypeError(`${label}.logger must be a boolean, got ${describeValue(logger)}`);
  if (
    typeof requestTimeoutMs !== 'number' ||
    !Number.isInteger(requestTimeoutMs) ||
    requestTimeoutMs < 1 ||
    requestTimeoutMs > 3_600_000
  ) {
    throw new RangeError(
      `${label}.requestTimeoutMs must be an integer from 1 to 3600000 (ms), got ${describeValue(requestTimeoutMs)}`,
    );
  }
  if (
    typeof maxRequestsInProgress !== 'number' ||
    !Number.isInteger(maxRequestsInProgress) ||
    maxRequestsInProgress < 1 ||
    maxRequestsInProgress > 10_000
  ) {
    throw new RangeError(
      `${label}.maxRequestsInProgress must be an integer from 1 to 10000, got ${describeValue(maxRequestsInProgress)}`,
    );
  }
  return {
    apiKeys: checkApiKeys(value.apiKeys, `${label}.apiKeys`),
    prefix: prefix.replace(/\/$/, ''),
    dataDir,
    faults: faults === undefined || faults === null ? null : checkFaults(faults, `${label}.faults`),
    logger,
    requestTimeoutMs,
    maxRequestsInProgress,
  };
}

/** Checks `port` and `host` of `startServer`. */
export function checkListenOptions(
  options: { port?: unknown; host?: unknown },
  label = 'options',
): { port: number; host: string } {
  const { port = 0, host = '127.0.0.1' } = options;
  if (typeof port !== 'number' || !Number.isInteger(port) || port < 0 || port > 65535) {
    throw new RangeError(`${label}.port must be an integer from 0 to 65535, got ${describeValue(port)}`);
  }
  if (typeof host !== 'string' || host.trim() === '') {
    throw new TypeError(`${label}.host must be a non-empty host name or address, got ${describeValue(host)}`);
  }
  return { port, host };
}
