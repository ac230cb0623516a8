import type { Page, RouteName } from '@aqm/wire';
import type { Dispatcher } from 'undici';
import { isPlainObject } from './checks.js';
import { errorFromResponse } from './error-factory.js';
import { AqmApiError, AqmConnectionError, AqmTimeoutError } from './errors.js';
import { type RequestOptions, type ResolvedClientOptions, resolveRequestOptions } from './options.js';
import { redactSecret } from './redact.js';
import { type PreparedRequest, prepareRequest, type RequestInput } from './request.js';
import { type AttemptOutcome, RETRYABLE_STATUSES, type RetryClock, withRetries } from './retry.js';
import { parseRetryAfter } from './retry-after.js';
import { type AttemptResult, sendAttempt } from './transport.js';

type Envelope = Record<string, unknown>;

function describeCause(error: unknown): string {
  if (error instanceof Error) {
    const code = 'code' in error && typeof error.code === 'string' ? ` (${error.code})` : '';
    return `${error.message}${code}`;
  }
  return String(error);
}

/**
 * Sends the requests of every resource: checks input, runs the retry loop over single undici
 * attempts, maps failures to error classes and unwraps the success envelope. Holds the API key
 * in a private field, so neither inspecting nor serialising it reveals the key.
 */
export class Requester {
  readonly #options: ResolvedClientOptions;
  readonly #dispatcher: Dispatcher;
  readonly #clock: RetryClock;
  #closed = false;

  constructor(options: ResolvedClientOptions, dispatcher: Dispatcher, clock: RetryClock) {
    this.#options = options;
    this.#dispatcher = dispatcher;
    this.#clock = clock;
  }

  /** Refuses further requests (the client is closing). */
  markClosed(): void {
    this.#closed = true;
  }

  /** Calls a route answering `{ success, data }` and returns `data` as received. */
  async data<T>(route: RouteName, input: RequestInput, options: RequestOptions | undefined): Promise<T> {
    const { envelope } = await this.#send(route, input, options);
    return envelope.data as T;
  }

  /** Calls a paged route and returns `{ data, pagination }` as received. */
  async page<T>(
    route: RouteName,
    input: RequestInput,
    options: RequestOptions | undefined,
  ): Promise<Page<T>> {
    const { envelope, prepared, status } = await this.#send(route, input, options);
    if (!Array.isArray(envelope.data) || !isPlainObject(envelope.pagination)) {
      throw new AqmApiError(
        `${status} on ${prepared.method} ${prepared.path}: expected a paginated envelope { success, data: [], pagination }`,
        { status, method: prepared.method, path: prepared.path, body: envelope },
      );
    }
    return { data: envelope.data as T[], pagination: envelope.pagination as Page<T>['pagination'] };
  }

  async #send(
    route: RouteName,
    input: RequestInput,
    options: RequestOptions | undefined,
  ): Promise<{ envelope: Envelope; prepared: PreparedRequest; status: number }> {
    const prepared = prepareRequest(route, input);
    const settings = resolveRequestOptions(options, this.#options);
    settings.signal?.throwIfAborted();
    if (this.#closed) {
      throw new AqmConnectionError(`${prepared.method} ${prepared.path}: the client is closed`, {
        method: prepared.method,
        path: prepared.path,
      });
    }
    const headers: Record<string, string> = {
      ...this.#options.headers,
      accept: 'application/json',
      'user-agent': this.#options.userAgent,
      'x-api-key': this.#options.apiKey,
    };
    if (prepared.body !== undefined) headers['content-type'] = 'application/json';
    const policy = {
      retryable: prepared.retryable,
      maxRetries: settings.maxRetries,
      initialRetryDelayMs: this.#options.initialRetryDelayMs,
      maxRetryDelayMs: this.#options.maxRetryDelayMs,
      maxRetryAfterMs: this.#options.maxRetryAfterMs,
    };
    return withRetries(
      async () => {
        const result = await sendAttempt({
          url: `${this.#options.baseUrl}${prepared.pathWithQuery}`,
          method: prepared.method,
          headers,
          body: prepared.body,
          dispatcher: this.#dispatcher,
          timeoutMs: settings.timeoutMs,
          signal: settings.signal,
        });
        return this.#outcome(result, prepared, settings.timeoutMs);
      },
      policy,
      this.#clock,
      settings.signal,
    );
  }

  #outcome(
    result: AttemptResult,
    prepared: PreparedRequest,
    timeoutMs: number,
  ): AttemptOutcome<{ envelope: Envelope; prepared: PreparedRequest; status: number }> {
    const { method, path } = prepared;
    switch (result.kind) {
      case 'aborted':
        // The caller asked to stop: not an error of the service, so it is not retried or wrapped.
        throw result.reason;
      case 'timeout':
        return {
          ok: false,
          transient: true,
          error: new AqmTimeoutError(`${method} ${path}: no response within ${timeoutMs} ms`, {
            method,
            path,
            timeoutMs,
          }),
        };
      case 'connection-error':
        return {
          ok: false,
          transient: true,
          error: new AqmConnectionError(
            `${method} ${path}: connection failed: ${describeCause(result.error)}`,
            {
              method,
              path,
              cause: result.error,
            },
          ),
        };
      case 'response':
        break;
    }
    const { status, headers, body } = result;
    if (status < 200 || status > 299) {
      return {
        ok: false,
        transient: RETRYABLE_STATUSES.has(status),
        // The key must not reach an error even when the service echoes it back.
        error: errorFromResponse(status, redactSecret(body, this.#options.apiKey), headers, method, path),
        retryAfterMs: parseRetryAfter(headers['retry-after']),
      };
    }
    if (!isPlainObject(body) || !('data' in body)) {
      const error = new AqmApiError(
        `${status} on ${method} ${path}: expected a JSON envelope { success, data }, got ${
          body === undefined
            ? 'an empty body'
            : typeof body === 'string'
              ? 'a non-JSON body'
              : 'another shape'
        }`,
        { status, method, path, body: redactSecret(body, this.#options.apiKey) },
      );
      return { ok: false, transient: false, error };
    }
    return { ok: true, value: { envelope: body, prepared, status } };
  }
}
