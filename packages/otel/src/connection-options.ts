import type { AqmClient } from '@aqm/client';
import { normalizeBaseUrl, readProxyEnvironment } from '@aqm/client/light';
import { visibleControls } from '@aqm/wire/light';
import { describeValue, optionLabel } from './option-checks.js';
import type { ApplicationIdLookup } from './options.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type Env = Record<string, string | undefined>;

/** The connection options as passed in code (a subset of `AqmOtelOptions`). */
export interface ConnectionInput {
  apiKey?: unknown;
  baseUrl?: unknown;
  applicationId?: unknown;
  client?: unknown;
  allowInsecureHttp?: unknown;
}

/** Where the service is and which application the traces belong to, checked. */
export interface Connection {
  apiKey: string | undefined;
  baseUrl: string | undefined;
  applicationId: string | Promise<string> | ApplicationIdLookup;
  client: AqmClient | undefined;
}

/**
 * Connection settings that the environment lacks or holds in an unusable form, while the app did
 * not pass them in code. Not a programmer's error: the processor, exporter and `registerAqm()`
 * catch it and turn themselves off with one warning (the message names every variable concerned
 * and never shows the API key).
 */
export class EnvironmentConfigError extends Error {
  override readonly name = 'AqmEnvironmentConfigError';

  constructor(
    /** Variables not set (and not passed as options). */
    readonly missing: readonly string[],
    /** Variables set to something unusable, each described. */
    readonly invalid: readonly string[],
  ) {
    const parts: string[] = [];
    if (missing.length > 0) {
      parts.push(`${listed(missing)} ${missing.length === 1 ? 'is' : 'are'} not set (nor passed as options)`);
    }
    parts.push(...invalid);
    // Values quoted from the environment may hold control characters: shown, never obeyed.
    super(visibleControls(parts.join('; ')));
  }
}

function listed(names: readonly string[]): string {
  return names.length === 1 ? (names[0] as string) : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/** Collects what the environment lacks, so one message names all of it. */
class EnvProblems {
  readonly missing: string[] = [];
  readonly invalid: string[] = [];

  /** The variable's value, or `undefined` (recorded as missing) when unset or blank. */
  read(env: Env, name: string): string | undefined {
    const value = env[name];
    if (value === undefined || value.trim() === '') {
      this.missing.push(name);
      return undefined;
    }
    return value.trim();
  }
}

function checkApiKey(value: unknown, fromEnv: boolean): string {
  // The value itself is never shown: a wrongly typed key may still be a secret.
  if (typeof value !== 'string' || value.trim() === '') {
    throw new TypeError(
      `Expected ${optionLabel('apiKey', fromEnv ? 'AQM_API_KEY' : undefined)} to be a non-empty string, got a value of type ${typeof value}`,
    );
  }
  return value;
}

/**
 * `undefined` when valid, else the reason. The client's own rules (no credentials, query or
 * fragment; plain http only to loopback) are checked here too, so that a value from the
 * environment the client would refuse turns the component off with a warning instead of throwing.
 */
function baseUrlProblem(value: unknown, label: string, allowInsecureHttp: boolean): string | undefined {
  if (typeof value !== 'string')
    return `Expected ${label} to be an http(s) URL string, got ${describeValue(value)}`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `Expected ${label} to be an http(s) URL, got ${describeValue(value)}`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return `Expected ${label} to be an http(s) URL, got ${describeValue(value)}`;
  }
  try {
    normalizeBaseUrl(value, allowInsecureHttp);
  } catch (error) {
    // The client's message shows the URL without credentials, query string or fragment.
    return `${label} is refused: ${(error as Error).message}`;
  }
  return undefined;
}

function applicationIdProblem(value: unknown, label: string): string | undefined {
  return typeof value === 'string' && UUID.test(value)
    ? undefined
    : `Expected ${label} to be an application id (a UUID), got ${describeValue(value)}`;
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function'
  );
}

function resolveApplicationId(value: unknown): string | Promise<string> | ApplicationIdLookup {
  // A lookup function: what it gives is checked when a request needs it.
  if (typeof value === 'function') return value as ApplicationIdLookup;
  if (isThenable(value)) {
    // Checked once it settles, with the same message as a string would get. Marked as handled
    // here: if a later option throws, no pipeline awaits it, and a rejection must not crash the app.
    const checked = Promise.resolve(value).then((id: unknown) => {
      const problem = applicationIdProblem(id, '`applicationId`');
      if (problem !== undefined) throw new TypeError(problem);
      return id as string;
    });
    checked.catch(() => {});
    return checked;
  }
  const problem = applicationIdProblem(value, '`applicationId`');
  if (problem !== undefined) throw new TypeError(problem);
  return value as string;
}

function resolveClient(raw: ConnectionInput): AqmClient | undefined {
  const client: unknown = raw.client;
  if (client === undefined) return undefined;
  // The pipeline sends through `evaluations.submitSerialized` (its queue holds each record's JSON as UTF-8 bytes).
  const submit = (client as { evaluations?: { submitSerialized?: unknown } } | null)?.evaluations
    ?.submitSerialized;
  if (typeof client !== 'object' || client === null || typeof submit !== 'function') {
    throw new TypeError(`Expected \`client\` to be an AqmClient, got ${describeValue(client)}`);
  }
  if (raw.apiKey !== undefined || raw.baseUrl !== undefined || raw.allowInsecureHttp !== undefined) {
    throw new TypeError(
      '`client` cannot be combined with `apiKey`, `baseUrl` or `allowInsecureHttp`: the client carries its own connection settings',
    );
  }
  return client as AqmClient;
}

/**
 * The connection from the options, else from `AQM_API_KEY`, `AQM_BASE_URL` and
 * `AQM_APPLICATION_ID`. A bad value passed in code throws a `TypeError` naming the option (a
 * programmer's error); settings the environment lacks, or holds in an unusable form, throw one
 * {@link EnvironmentConfigError} naming them all. An API key in the environment is only checked
 * for presence, and never shown.
 */
export function resolveConnection(raw: ConnectionInput, env: Env): Connection {
  const client = resolveClient(raw);
  const allowInsecureHttp = raw.allowInsecureHttp === true;
  // What was passed in code is checked first: those errors throw whatever the environment holds.
  if (client === undefined) {
    if (raw.apiKey !== undefined) checkApiKey(raw.apiKey, false);
    if (raw.baseUrl !== undefined) {
      const problem = baseUrlProblem(raw.baseUrl, '`baseUrl`', allowInsecureHttp);
      if (problem !== undefined) throw new TypeError(problem);
    }
  }
  const applicationId = raw.applicationId === undefined ? undefined : resolveApplicationId(raw.applicationId);

  const problems = new EnvProblems();
  let apiKey = client === undefined ? (raw.apiKey as string | undefined) : undefined;
  let baseUrl = client === undefined ? (raw.baseUrl as string | undefined) : undefined;
  if (client === undefined && apiKey === undefined) apiKey = problems.read(env, 'AQM_API_KEY');
  if (client === undefined && baseUrl === undefined) {
    baseUrl = problems.read(env, 'AQM_BASE_URL');
    const problem =
      baseUrl === undefined
        ? undefined
        : baseUrlProblem(baseUrl, optionLabel('baseUrl', 'AQM_BASE_URL'), allowInsecureHttp);
    if (problem !== undefined) problems.invalid.push(redacted(problem, apiKey));
  }
  // The client made here honours HTTP(S)_PROXY; one it cannot use turns the component off like a
  // bad AQM_BASE_URL (going out directly would fail, or bypass the network's policy, in silence).
  if (client === undefined) {
    for (const problem of readProxyEnvironment(env).problems) {
      problems.invalid.push(redacted(problem, apiKey));
    }
  }
  let id = applicationId;
  if (id === undefined) {
    const value = problems.read(env, 'AQM_APPLICATION_ID');
    const problem =
      value === undefined
        ? undefined
        : applicationIdProblem(value, optionLabel('applicationId', 'AQM_APPLICATION_ID'));
    if (problem !== undefined) problems.invalid.push(redacted(problem, apiKey));
    else id = value;
  }
  if (problems.missing.length > 0 || problems.invalid.length > 0) {
    throw new EnvironmentConfigError(problems.missing, problems.invalid);
  }
  return { apiKey, baseUrl, applicationId: id as string | Promise<string> | ApplicationIdLookup, client };
}

/** A key pasted into the wrong variable would otherwise be shown as that variable's value. */
function redacted(message: string, apiKey: string | undefined): string {
  if (apiKey === undefined || apiKey.length < 4) return message;
  return message.replaceAll(apiKey, '[redacted]');
}
