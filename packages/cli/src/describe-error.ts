import {
  AqmApiError,
  AqmAuthenticationError,
  AqmConflictError,
  AqmConnectionError,
  AqmInputError,
  AqmNotFoundError,
  AqmRateLimitError,
  AqmServerError,
  AqmTimeoutError,
  AqmValidationError,
  type ProxySetting,
  redactSecretInText,
} from '@aqm/client';
import { EXIT_CODES, type ExitCode } from './exit-codes.js';
import { describeProxyFailure } from './proxy-failure.js';
import { CliFailure } from './usage-error.js';

/** What to print for a failed command, and the exit code. */
export interface ErrorReport {
  /** The first line says what went wrong and what to do; further lines are details. */
  lines: string[];
  exitCode: ExitCode;
}

/** What the error description may mention of the command's context. */
export interface ErrorContext {
  baseUrl?: string | undefined;
  /** The proxy requests to the base URL go through (`HTTPS_PROXY` / `HTTP_PROXY`), if any. */
  proxy?: ProxySetting | undefined;
}

function serviceSaid(err: AqmApiError): string {
  const body = err.body;
  if (typeof body === 'object' && body !== null && 'message' in body && typeof body.message === 'string') {
    return body.message;
  }
  return err.message;
}

function causeCode(err: AqmConnectionError): string {
  const cause = err.cause as { code?: unknown; cause?: { code?: unknown } } | undefined;
  const code = cause?.code ?? cause?.cause?.code;
  return typeof code === 'string' ? code : err.message;
}

/** The application id in a request path such as `/applications/<id>/traces`, if any. */
function applicationIdOf(path: string): string | undefined {
  return /^\/applications\/([^/]+)/.exec(path)?.[1];
}

/**
 * Rewords the client's advice for settings the CLI does not have: it has no way to allow plain http
 * to another machine (the key would travel unencrypted), and it takes the key from its own flag.
 */
function forCliUser(message: string): string {
  return message
    .replace(/^baseUrl /, 'the base URL (--base-url or AQM_BASE_URL) ')
    .replace(', or set allowInsecureHttp: true', '; plain http is for loopback addresses only')
    .replace('pass the API key as apiKey', 'pass the key with --api-key or AQM_API_KEY');
}

/**
 * Turns any error into one line saying what went wrong and what to do, plus the documented exit
 * code: 2 for usage and input errors, 1 for service and network errors.
 */
export function describeError(err: unknown, context: ErrorContext = {}): ErrorReport {
  const service = (line: string, details: string[] = []): ErrorReport => ({
    lines: [line, ...details],
    exitCode: EXIT_CODES.serviceError,
  });
  if (err instanceof CliFailure) return { lines: [err.message, ...err.lines], exitCode: err.exitCode };
  if (err instanceof AqmInputError) {
    const list = err.errors.map((e) => `${e.path} ${e.message}`).join('; ');
    return {
      lines: [`Invalid input: ${list || err.message}. Nothing was sent.`],
      exitCode: EXIT_CODES.usageError,
    };
  }
  if (err instanceof AqmAuthenticationError) {
    return service('The service refused the API key (401). Check --api-key or AQM_API_KEY.');
  }
  if (err instanceof AqmNotFoundError) {
    const appId = applicationIdOf(err.path);
    const said = serviceSaid(err);
    if (appId === undefined) {
      // No id in the path (GET /applications, /metrics/eval...): the route itself is missing, which
      // is what a base URL without the service's path prefix gives.
      const where = context.baseUrl === undefined ? '' : ` (now ${context.baseUrl})`;
      return service(
        `Not found (404): ${said} (${err.method} ${err.path}). Check --base-url or AQM_BASE_URL${where}: it includes the service's path prefix, e.g. http://127.0.0.1:4000/api.`,
      );
    }
    const id = decodeURIComponent(appId);
    const what = said.includes(id) ? '' : ` (application ${id})`;
    return service(
      `Not found (404): ${said}${what}. Check the application id (aqm apps list shows them) and the other ids given.`,
    );
  }
  if (err instanceof AqmConflictError) {
    return service(
      `The name is taken (409): ${serviceSaid(err)}. Choose another name, or find the existing application with aqm apps list --search.`,
    );
  }
  if (err instanceof AqmValidationError) {
    const details = err.errors.map((e) => `  ${e.path}: ${e.message}`);
    return service(
      `The service rejected the request (400): ${serviceSaid(err)}. Fix the fields below.`,
      details,
    );
  }
  if (err instanceof AqmRateLimitError) {
    const wait = err.retryAfterMs === undefined ? '' : ` in ${Math.ceil(err.retryAfterMs / 1000)} s`;
    return service(`The service is rate limiting requests (429). Try again${wait}.`);
  }
  if (err instanceof AqmServerError) {
    return service(`The service failed (${err.status}): ${serviceSaid(err)}. Try again later.`);
  }
  if (err instanceof AqmApiError) {
    return service(`The service answered ${err.status}: ${serviceSaid(err)}.`);
  }
  const where = context.baseUrl === undefined ? 'the service' : `the service at ${context.baseUrl}`;
  if (err instanceof AqmTimeoutError) {
    return service(
      `No answer from ${where} within ${err.timeoutMs} ms. Check --base-url or AQM_BASE_URL, then retry.`,
    );
  }
  if (err instanceof AqmConnectionError) {
    const viaProxy = describeProxyFailure(err, context.proxy, causeCode(err));
    if (viaProxy !== undefined) return service(viaProxy);
    return service(
      `Could not reach ${where} (${causeCode(err)}). Check --base-url or AQM_BASE_URL and that the service is running.`,
    );
  }
  // The client checks its options with TypeError/RangeError naming the option (never the key's value).
  if (err instanceof TypeError || err instanceof RangeError) {
    return { lines: [`Invalid configuration: ${forCliUser(err.message)}`], exitCode: EXIT_CODES.usageError };
  }
  const message = err instanceof Error ? err.message : String(err);
  return service(`Unexpected error: ${message}`);
}

/**
 * Replaces every whole occurrence of the secret in the text (the client's
 * {@link redactSecretInText}), so no error line can carry the key and a short key cannot mangle
 * the words around it.
 */
export function redact(text: string, secret: string | undefined): string {
  return secret === undefined ? text : redactSecretInText(text, secret);
}
