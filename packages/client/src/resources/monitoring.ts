import type { MonitoringConfig, UpdateMonitoringBody } from '@aqm/wire';
import type { RequestOptions } from '../options.js';
import type { Requester } from '../requester.js';

/** `client.monitoring`: the quality metrics and security plugins of an application. */
export class MonitoringResource {
  readonly #requester: Requester;

  /** @internal Created by {@link AqmClient}. */
  constructor(requester: Requester) {
    this.#requester = requester;
  }

  /**
   * Reads an application's monitoring configuration.
   * @example
   * ```ts
   * const { metrics, plugins } = await client.monitoring.get(applicationId);
   * ```
   */
  get(applicationId: string, options?: RequestOptions): Promise<MonitoringConfig> {
    return this.#requester.data('monitoring.get', { params: { applicationId } }, options);
  }

  /**
   * Saves monitoring settings (`PUT`); omitted fields and `securityConfig` keys stay unchanged.
   * @example
   * ```ts
   * await client.monitoring.update(applicationId, {
   *   metrics: [{ type: 'faithfulness', threshold: 0.7 }],
   *   plugins: { harmful: ['harmful:hate'] },
   * });
   * ```
   */
  update(
    applicationId: string,
    body: UpdateMonitoringBody,
    options?: RequestOptions,
  ): Promise<MonitoringConfig> {
    return this.#requester.data('monitoring.update', { params: { applicationId }, body }, options);
  }
}
