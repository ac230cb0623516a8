import type { AqmClient } from '@aqm/client';
import type { ResolvedOptions } from '../options.js';
import type { EvaluationsClient } from './service-submit.js';

/**
 * The `AqmClient` built from the key and base URL, loaded on the first send rather than on import:
 * `@aqm/client` brings undici and the wire schemas (zod), a large part of what a cold start would
 * otherwise pay before the app's first span. A failed load rejects that send like any failed
 * request (the sender reports the batch, nothing reaches the app); the next send tries again.
 */
export class LazyClient implements EvaluationsClient {
  readonly #options: ResolvedOptions;
  #client: Promise<AqmClient> | undefined;

  constructor(options: ResolvedOptions) {
    this.#options = options;
  }

  readonly evaluations: EvaluationsClient['evaluations'] = {
    submitSerialized: async (applicationId, traces, options) =>
      (await this.#load()).evaluations.submitSerialized(applicationId, traces, options),
  };

  async close(): Promise<void> {
    // Never loaded: no connection pool to close (and nothing to load now).
    const client = await this.#client?.catch(() => undefined);
    await client?.close();
  }

  #load(): Promise<AqmClient> {
    if (this.#client === undefined) {
      const options = this.#options;
      const loading = import('@aqm/client').then(
        ({ AqmClient }) =>
          new AqmClient({
            apiKey: options.apiKey as string,
            baseUrl: options.baseUrl as string,
            timeoutMs: options.requestTimeoutMs,
            maxRetries: 0, // the sender owns the retry policy
            allowInsecureHttp: options.allowInsecureHttp,
          }),
      );
      // A failed load is not kept: the next send loads again.
      loading.catch(() => {
        if (this.#client === loading) this.#client = undefined;
      });
      this.#client = loading;
    }
    return this.#client;
  }
}
