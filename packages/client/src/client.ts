import { inspect } from 'node:util';
import type { Dispatcher } from 'undici';
import { createEnvDispatcher } from './env-proxy.js';
import { CLOCK, type WithClock } from './internals.js';
import { type AqmClientOptions, resolveClientOptions } from './options.js';
import { Requester } from './requester.js';
import { ApplicationsResource } from './resources/applications.js';
import { EvaluationsResource } from './resources/evaluations.js';
import { GuardrailsResource } from './resources/guardrails.js';
import { MetricsResource } from './resources/metrics.js';
import { MonitoringResource } from './resources/monitoring.js';
import { TracesResource } from './resources/traces.js';
import { WidgetsResource } from './resources/widgets.js';
import { type RetryClock, systemClock } from './retry.js';

function clockFrom(options: unknown): RetryClock {
  const custom = typeof options === 'object' && options !== null ? (options as WithClock)[CLOCK] : undefined;
  return { ...systemClock, ...custom };
}

/**
 * Typed client for every endpoint of the AQM service interface. One keep-alive connection pool
 * per client; call {@link AqmClient.close} when done. The API key is kept private: it shows in
 * no error, log line, `JSON.stringify(client)` or `util.inspect(client)`.
 * @example
 * ```ts
 * import { AqmClient } from '@aqm/client';
 *
 * const client = new AqmClient({ apiKey: process.env.AQM_API_KEY, baseUrl: 'http://127.0.0.1:4000/api' });
 * const app = await client.applications.create({ name: 'support-bot' });
 * await client.monitoring.update(app.id, { metrics: [{ type: 'faithfulness', threshold: 0.7 }] });
 * await client.close();
 * ```
 */
export class AqmClient {
  /** The normalised base URL requests are sent to (the spec's `{base_url}`, no trailing slash). */
  readonly baseUrl: string;
  /** Applications: `list`, `iterate`, `create`, `get`, `update`. */
  readonly applications: ApplicationsResource;
  /** Monitoring configuration: `get`, `update`. */
  readonly monitoring: MonitoringResource;
  /** Guardrails: `get`, `update`, `validators`, and `evaluations` (`list`, `iterate`, `get`). */
  readonly guardrails: GuardrailsResource;
  /** Traces: `list`, `iterate`, `get`. */
  readonly traces: TracesResource;
  /** Evaluations: `submit`, `list`, `iterate`. */
  readonly evaluations: EvaluationsResource;
  /** Widgets: `list`, `data`. */
  readonly widgets: WidgetsResource;
  /** Catalogs: `eval`, `security`. */
  readonly metrics: MetricsResource;

  readonly #requester: Requester;
  /** The dispatcher this client created and so must close; `undefined` with a caller's dispatcher. */
  readonly #ownAgent: Dispatcher | undefined;
  #closing: Promise<void> | undefined;

  /**
   * Checks every option; throws a `TypeError`/`RangeError` naming the option, the expectation and
   * the value (never the API key's value).
   * @example
   * ```ts
   * // AQM_API_KEY and AQM_BASE_URL from the environment, one retry at most, 10 s per attempt:
   * const client = new AqmClient({ maxRetries: 1, timeoutMs: 10_000 });
   * ```
   */
  constructor(options: AqmClientOptions = {}) {
    const resolved = resolveClientOptions(options);
    this.baseUrl = resolved.baseUrl;
    // A caller's dispatcher wins; else HTTP(S)_PROXY / NO_PROXY are honoured (see createEnvDispatcher).
    this.#ownAgent = resolved.dispatcher ? undefined : createEnvDispatcher({ keepAliveTimeout: 10_000 });
    const dispatcher: Dispatcher = resolved.dispatcher ?? (this.#ownAgent as Dispatcher);
    this.#requester = new Requester(resolved, dispatcher, clockFrom(options));
    this.applications = new ApplicationsResource(this.#requester);
    this.monitoring = new MonitoringResource(this.#requester);
    this.guardrails = new GuardrailsResource(this.#requester);
    this.traces = new TracesResource(this.#requester);
    this.evaluations = new EvaluationsResource(this.#requester);
    this.widgets = new WidgetsResource(this.#requester);
    this.metrics = new MetricsResource(this.#requester);
  }

  /**
   * Refuses new requests, lets requests in flight finish and releases the client's connections.
   * Idempotent. A `dispatcher` passed in the options is left open (it belongs to the caller).
   * @example
   * ```ts
   * try {
   *   await client.applications.list();
   * } finally {
   *   await client.close();
   * }
   * ```
   */
  close(): Promise<void> {
    if (this.#closing === undefined) {
      this.#requester.markClosed();
      this.#closing = this.#ownAgent ? this.#ownAgent.close() : Promise.resolve();
    }
    return this.#closing;
  }

  /**
   * What `JSON.stringify(client)` shows: the base URL, never the API key.
   * @example
   * ```ts
   * JSON.stringify(client); // '{"baseUrl":"http://127.0.0.1:4000/api","apiKey":"[redacted]"}'
   * ```
   */
  toJSON(): { baseUrl: string; apiKey: '[redacted]' } {
    return { baseUrl: this.baseUrl, apiKey: '[redacted]' };
  }

  /**
   * What `util.inspect(client)` and `console.log(client)` show: the base URL, never the API key.
   * @example
   * ```ts
   * console.log(client); // AqmClient { baseUrl: "http://127.0.0.1:4000/api", apiKey: '[redacted]' }
   * ```
   */
  [inspect.custom](): string {
    return `AqmClient { baseUrl: ${JSON.stringify(this.baseUrl)}, apiKey: '[redacted]' }`;
  }
}
