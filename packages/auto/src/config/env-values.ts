import { normalizeBaseUrl } from '@aqm/client';
import { flagValue } from '@aqm/otel/pipeline';

/**
 * Parsers for single environment variables. Each returns the value or throws a `ConfigError`
 * whose message names the variable, what it expects and what it got (the API key's value is
 * never shown: see `readAutoConfig`).
 */

/** The environment as `startAuto` reads it. */
export type Env = Readonly<Record<string, string | undefined>>;

/**
 * A variable with a value that cannot be used: its name, what it expects, and the raw value. The
 * message is composed by the reader (`describe`), which hides an API key pasted into it.
 */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';

  constructor(
    readonly variable: string,
    readonly expectation: string,
    readonly value: string,
    /** Said instead of the value (e.g. its length). */
    readonly got?: string,
  ) {
    super(`${variable} must be ${expectation}`);
  }

  /** The full message; `hide` redacts what must not be shown (applied before shortening). */
  describe(hide: (value: string) => string): string {
    return `${this.variable} must be ${this.expectation}, got ${this.got ?? shown(hide(this.value))}`;
  }
}

/**
 * A base URL the client refuses (credentials, a query string, plain http to another machine). The
 * client's message already shows the URL without credentials, query or fragment; it is reworded for
 * an environment variable, where `allowInsecureHttp` and `apiKey` are no settings of @aqm/auto.
 */
export class RefusedUrlError extends ConfigError {
  constructor(
    variable: string,
    value: string,
    readonly reason: string,
  ) {
    super(variable, 'a base URL the client accepts', value);
  }

  override describe(hide: (value: string) => string): string {
    const reason = this.reason
      .replace(/^baseUrl /, 'it ')
      .replace(', or set allowInsecureHttp: true', ' (plain http is for loopback addresses only)')
      .replace('pass the API key as apiKey', 'the key goes in AQM_API_KEY');
    return `${this.variable} is refused: ${hide(reason)}`;
  }
}

const MAX_SHOWN_CHARS = 60;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Renders a value for a message, shortened. */
export function shown(value: string): string {
  return `\`${value.length > MAX_SHOWN_CHARS ? `${value.slice(0, MAX_SHOWN_CHARS)}…` : value}\``;
}

/** The variable's value, trimmed; `undefined` when unset or blank (a blank variable counts as unset). */
export function text(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
}

/** `true`/`false` (also `1`/`0`, `yes`/`no`, `on`/`off`, any case); `undefined` when unset. */
export function flag(env: Env, name: string): boolean | undefined {
  const value = text(env, name);
  if (value === undefined) return undefined;
  const parsed = flagValue(value);
  if (parsed === undefined) throw new ConfigError(name, 'true or false', value);
  return parsed;
}

const URL_EXPECTATION = 'an http(s) URL such as https://aqm.example.com/api';

/** An http(s) URL; `undefined` when unset. */
export function httpUrl(env: Env, name: string): string | undefined {
  const value = text(env, name);
  if (value === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(name, URL_EXPECTATION, value);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(name, URL_EXPECTATION, value);
  }
  try {
    // The client's rules, checked now: refused later, it would only say "could not start".
    normalizeBaseUrl(value, false);
  } catch (error) {
    throw new RefusedUrlError(name, value, (error as Error).message);
  }
  return value;
}

/** An application id (a UUID); `undefined` when unset. */
export function uuid(env: Env, name: string): string | undefined {
  const value = text(env, name);
  if (value === undefined) return undefined;
  if (!UUID.test(value)) throw new ConfigError(name, 'an application id (a UUID)', value);
  return value;
}

/** A string of at most `max` characters (after trimming); `undefined` when unset. */
export function boundedText(env: Env, name: string, max: number): string | undefined {
  const value = text(env, name);
  if (value === undefined) return undefined;
  if (value.length > max) {
    throw new ConfigError(name, `at most ${max} characters`, value, `${value.length} characters`);
  }
  return value;
}
