import type { EvalMetric, SecurityCatalog } from '@aqm/wire';
import type { RequestOptions } from '../options.js';
import type { Requester } from '../requester.js';

/** `client.metrics`: the catalogs of eval metrics and security plugins. */
export class MetricsResource {
  readonly #requester: Requester;

  /** @internal Created by {@link AqmClient}. */
  constructor(requester: Requester) {
    this.#requester = requester;
  }

  /**
   * The eval metric catalog; an entry's `name` is a monitoring metric `type`.
   * @example
   * ```ts
   * const names = (await client.metrics.eval()).map((m) => m.name);
   * ```
   */
  eval(options?: RequestOptions): Promise<EvalMetric[]> {
    return this.#requester.data('metrics.eval', {}, options);
  }

  /**
   * The security plugin catalog, keyed by risk category; a plugin's `type` goes in monitoring `plugins`.
   * @example
   * ```ts
   * const catalog = await client.metrics.security();
   * console.log(Object.keys(catalog)); // e.g. ['harmful', 'bias', 'pii']
   * ```
   */
  security(options?: RequestOptions): Promise<SecurityCatalog> {
    return this.#requester.data('metrics.security', {}, options);
  }
}
