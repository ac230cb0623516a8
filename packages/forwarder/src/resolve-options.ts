import { isIP } from 'node:net';
import { type AqmOtelOptions, debugSource } from '@aqm/otel/pipeline';
import { FORWARDER_ONLY_OPTIONS, type ForwarderOptions } from './forwarder-options.js';
import { describe, type Env, fromEnv, label } from './option-values.js';
import { type GrpcOptions, resolveGrpcOptions } from './resolve-grpc-options.js';

/** A reference to an application: its id, or its name (found or created). */
export type ApplicationRef = { readonly id: string } | { readonly name: string };

/** The forwarder's own settings, checked, with the pipeline's knobs kept apart. */
export interface ResolvedForwarderOptions {
  apiKey: string;
  baseUrl: string;
  allowInsecureHttp: boolean;
  defaultApplication: ApplicationRef | undefined;
  applicationFromResource: boolean;
  createApplications: boolean;
  maxApplications: number;
  /** `undefined`: twice the pipelines' `maxQueueBytes` (checked against it at start). */
  maxTotalQueueBytes: number | undefined;
  port: number;
  host: string;
  /** The OTLP/gRPC receiver; `undefined` when `grpcPort` is not set. */
  grpc: GrpcOptions | undefined;
  ingestTokens: string[];
  maxBodyBytes: number;
  maxBodyBytesInFlight: number;
  retryAfterSeconds: number;
  receiveTimeoutMs: number;
  rootGraceMs: number;
  /** Whether debug lines are printed (`debug`, else `AQM_DEBUG` / `OTEL_LOG_LEVEL=debug`). */
  debug: boolean;
  /** The options for `@aqm/otel`'s `resolveOptions` (each pipeline adds `client` and `applicationId`). */
  pipelineOptions: AqmOtelOptions;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MIB = 1024 * 1024;
/**
 * The pipeline bounds of a forwarder when not given. `maxOpenTraces` covers 10,000 traces/s held
 * for the default one-second root grace (roots held are at most half of it), twice over.
 * `concurrency`: requests to the service in flight; with 2 (an app's default) and a service 100 ms
 * away, delivery stops at 2,000 traces/s (measured: 1,726 with 2, 4,250 with 8, offered 5,000).
 */
export const FORWARDER_PIPELINE_DEFAULTS = {
  concurrency: 8,
  maxOpenTraces: 20_000,
  maxQueueTraces: 20_000,
  maxQueueBytes: 128 * MIB,
} as const;

/** Longest application name taken from options or a resource. */
export const MAX_APPLICATION_NAME = 200;

function nonBlank(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === '' ? undefined : trimmed;
}

function integer(name: string, value: unknown, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    throw new TypeError(
      `Expected \`${name}\` to be an integer from ${min} to ${max}, got ${describe(value)}`,
    );
  }
  if (value < min || value > max) {
    throw new RangeError(
      `Expected \`${name}\` to be an integer from ${min} to ${max}, got ${describe(value)}`,
    );
  }
  return value;
}

function boolean(name: string, value: unknown, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean')
    throw new TypeError(`Expected \`${name}\` to be a boolean, got ${describe(value)}`);
  return value;
}

function resolveApiKey(options: ForwarderOptions, env: Env): string {
  const { value, envVar } = fromEnv(options.apiKey, env, 'AQM_API_KEY');
  if (value === undefined) {
    throw new TypeError(
      'Missing API key: pass the `apiKey` option or set the AQM_API_KEY environment variable',
    );
  }
  // The value is never shown: a wrongly typed key may still be a secret.
  if (typeof value !== 'string' || value.trim() === '') {
    throw new TypeError(
      `Expected ${label('apiKey', envVar)} to be a non-empty string, got a value of type ${typeof value}`,
    );
  }
  return value;
}

function resolveBaseUrl(options: ForwarderOptions, env: Env): string {
  const { value, envVar } = fromEnv(options.baseUrl, env, 'AQM_BASE_URL');
  if (value === undefined) {
    throw new TypeError(
      'Missing base URL: pass the `baseUrl` option or set the AQM_BASE_URL environment variable',
    );
  }
  let url: URL | undefined;
  try {
    url = typeof value === 'string' ? new URL(value) : undefined;
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new TypeError(`Expected ${label('baseUrl', envVar)} to be an http(s) URL, got ${describe(value)}`);
  }
  return value as string;
}

function resolveDefaultApplication(options: ForwarderOptions, env: Env): ApplicationRef | undefined {
  // An option given in code wins over both variables.
  const inCode = options.applicationId !== undefined || options.applicationName !== undefined;
  const id = fromEnv(options.applicationId, inCode ? {} : env, 'AQM_APPLICATION_ID');
  const name = fromEnv(options.applicationName, inCode ? {} : env, 'AQM_APPLICATION_NAME');
  if (id.value !== undefined && name.value !== undefined) {
    throw new TypeError(
      `Give ${label('applicationId', id.envVar)} or ${label('applicationName', name.envVar)}, not both`,
    );
  }
  if (id.value !== undefined) {
    if (typeof id.value !== 'string' || !UUID.test(id.value)) {
      throw new TypeError(
        `Expected ${label('applicationId', id.envVar)} to be an application id (a UUID), got ${describe(id.value)}`,
      );
    }
    return { id: id.value };
  }
  if (name.value !== undefined) {
    if (
      typeof name.value !== 'string' ||
      name.value.trim() === '' ||
      name.value.length > MAX_APPLICATION_NAME
    ) {
      throw new TypeError(
        `Expected ${label('applicationName', name.envVar)} to be a name of 1 to ${MAX_APPLICATION_NAME} characters, got ${describe(name.value)}`,
      );
    }
    return { name: name.value };
  }
  return undefined;
}

function resolveTokens(options: ForwarderOptions, env: Env): string[] {
  const { value, envVar } = fromEnv(options.ingestTokens, env, 'AQM_FORWARDER_TOKENS');
  if (value === undefined) return [];
  const list =
    typeof value === 'string' && envVar !== undefined ? value.split(',').map((t) => t.trim()) : value;
  // Token values are never shown: they are secrets.
  if (!Array.isArray(list) || list.some((token) => typeof token !== 'string')) {
    throw new TypeError(`Expected ${label('ingestTokens', envVar)} to be a list of strings`);
  }
  const tokens = (list as string[]).filter((token) => token !== '');
  if (tokens.some((token) => token.length < 16 || /\s/.test(token))) {
    throw new RangeError(
      `Expected every token of ${label('ingestTokens', envVar)} to be at least 16 characters without spaces`,
    );
  }
  return tokens;
}

/** Most bytes the bound on bodies in flight may be set to (16 GiB). */
const MAX_BODY_BYTES_IN_FLIGHT = 16 * 1024 * MIB;

function resolveBodyBytesInFlight(options: ForwarderOptions, env: Env, maxBodyBytes: number): number {
  const { value, envVar } = fromEnv(
    options.maxBodyBytesInFlight,
    env,
    'AQM_FORWARDER_MAX_BODY_BYTES_IN_FLIGHT',
  );
  // Eight of the largest bodies at once (64 MiB by default): many senders, bounded memory.
  if (value === undefined) return Math.min(8 * maxBodyBytes, MAX_BODY_BYTES_IN_FLIGHT);
  const parsed = envVar !== undefined && /^\d+$/.test(value as string) ? Number(value) : value;
  if (
    typeof parsed !== 'number' ||
    !Number.isInteger(parsed) ||
    parsed < maxBodyBytes ||
    parsed > MAX_BODY_BYTES_IN_FLIGHT
  ) {
    // At least one body of the largest size must fit.
    throw new RangeError(
      `Expected ${label('maxBodyBytesInFlight', envVar)} to be an integer from maxBodyBytes (${maxBodyBytes}) to ${MAX_BODY_BYTES_IN_FLIGHT}, got ${describe(value)}`,
    );
  }
  return parsed;
}

/** Whether `host` is a loopback address (or `localhost`). */
export function isLoopback(host: string): boolean {
  if (host === 'localhost') return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return host === '::1' || host === '::ffff:127.0.0.1';
}

/**
 * Checks the options and splits them: the forwarder's own, and the pipeline's knobs (checked by
 * `@aqm/otel` itself). Throws a `TypeError`/`RangeError` naming the first bad option; no secret
 * appears in a message.
 *
 * @example
 * const resolved = resolveForwarderOptions({ port: 0 }, process.env);
 */
export function resolveForwarderOptions(
  options: ForwarderOptions = {},
  env: Env = process.env,
): ResolvedForwarderOptions {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new TypeError(`Expected the options to be an object, got ${describe(options)}`);
  }
  if ((options as { client?: unknown }).client !== undefined) {
    throw new TypeError('The forwarder does not take a `client`: give `apiKey` and `baseUrl`');
  }
  const host = options.host ?? '127.0.0.1';
  if (typeof host !== 'string' || host === '')
    throw new TypeError(`Expected \`host\` to be an address, got ${describe(host)}`);
  const ingestTokens = resolveTokens(options, env);
  const allowUnauthenticated = boolean('allowUnauthenticated', options.allowUnauthenticated, false);
  if (!isLoopback(host) && ingestTokens.length === 0 && !allowUnauthenticated) {
    throw new Error(
      `Refusing to listen on ${host} (not loopback) without ingest tokens: anyone who reaches it could send ` +
        'traces under your API key. Set AQM_FORWARDER_TOKENS (or `ingestTokens`), or pass ' +
        '--allow-unauthenticated (`allowUnauthenticated: true`) when the network itself is trusted.',
    );
  }
  const defaultApplication = resolveDefaultApplication(options, env);
  const applicationFromResource = boolean('applicationFromResource', options.applicationFromResource, false);
  if (defaultApplication === undefined && !applicationFromResource) {
    throw new TypeError(
      'Missing application: pass `applicationId` or `applicationName`, set AQM_APPLICATION_ID or ' +
        'AQM_APPLICATION_NAME, or enable `applicationFromResource`',
    );
  }
  // A forwarder is a process of its own serving many apps: larger bounds than the in-app defaults
  // (2 requests in flight, 1000 open, 2048 queued, 32 MiB), still bounded. Given options win.
  const pipelineOptions: Record<string, unknown> = {
    ...FORWARDER_PIPELINE_DEFAULTS,
    // A forwarder is no frozen function: AQM_SERVERLESS (read by the pipeline) is not for it.
    serverless: false,
    // Resolved here, not by each pipeline: an application named by a resource gets a folder of its
    // own under it (see ApplicationRouter), which a folder the pipelines read themselves would not.
    persistDir: nonBlank(env.AQM_PERSIST_DIR),
    ...options,
  };
  // The rest of the pipeline's variables (AQM_ENVIRONMENT, AQM_SAMPLE_RATE, ...) are read by
  // `@aqm/otel`'s `resolveOptions`, with the checks of ENV_VARIABLES; given options win.
  if (pipelineOptions.persistDir === undefined) delete pipelineOptions.persistDir;
  const maxBodyBytes = integer('maxBodyBytes', options.maxBodyBytes, 8 * MIB, 1024, 256 * MIB);
  for (const key of FORWARDER_ONLY_OPTIONS) delete pipelineOptions[key];
  return {
    apiKey: resolveApiKey(options, env),
    baseUrl: resolveBaseUrl(options, env),
    allowInsecureHttp: boolean('allowInsecureHttp', options.allowInsecureHttp, false),
    defaultApplication,
    applicationFromResource,
    createApplications: boolean('createApplications', options.createApplications, false),
    maxApplications: integer('maxApplications', options.maxApplications, 100, 1, 10_000),
    maxTotalQueueBytes:
      options.maxTotalQueueBytes === undefined
        ? undefined
        : integer('maxTotalQueueBytes', options.maxTotalQueueBytes, 0, 1, Number.MAX_SAFE_INTEGER),
    port: integer('port', options.port, 4318, 0, 65_535),
    host,
    grpc: resolveGrpcOptions(options, env),
    ingestTokens,
    maxBodyBytes,
    maxBodyBytesInFlight: resolveBodyBytesInFlight(options, env, maxBodyBytes),
    retryAfterSeconds: integer('retryAfterSeconds', options.retryAfterSeconds, 5, 1, 3600),
    receiveTimeoutMs: integer('receiveTimeoutMs', options.receiveTimeoutMs, 30_000, 1, 3_600_000),
    rootGraceMs: integer('rootGraceMs', options.rootGraceMs, 1000, 0, 60_000),
    debug: boolean('debug', options.debug, debugSource(env) !== undefined),
    pipelineOptions: pipelineOptions as AqmOtelOptions,
  };
}
