import type { Widget, WidgetDataItem } from '@aqm/wire';
import type { RequestOptions } from '../options.js';
import type { Requester } from '../requester.js';
import type { WidgetDataParams } from '../types.js';

/** `client.widgets`: dashboard widget types and their data. */
export class WidgetsResource {
  readonly #requester: Requester;

  /** @internal Created by {@link AqmClient}. */
  constructor(requester: Requester) {
    this.#requester = requester;
  }

  /**
   * Lists the widget types; their `id`s are the `types` of {@link WidgetsResource.data}.
   * @example
   * ```ts
   * const ids = (await client.widgets.list()).map((w) => w.id);
   * ```
   */
  list(options?: RequestOptions): Promise<Widget[]> {
    return this.#requester.data('widgets.list', {}, options);
  }

  /**
   * Reads widget data for an inclusive time range; items answer `types` one-to-one, in order.
   * @example
   * ```ts
   * const [latency] = await client.widgets.data(applicationId, {
   *   types: ['latency'],
   *   start: new Date('2026-01-01T00:00:00Z'),
   *   end: new Date(),
   * });
   * ```
   */
  data(applicationId: string, body: WidgetDataParams, options?: RequestOptions): Promise<WidgetDataItem[]> {
    return this.#requester.data('widgets.data', { params: { applicationId }, body }, options);
  }
}
