import type { Page, Trace, TraceSummary } from '@aqm/wire';
import type { RequestOptions } from '../options.js';
import { autoPage } from '../paging.js';
import type { Requester } from '../requester.js';
import type { TraceListParams } from '../types.js';

/** `client.traces`: the prompt/response traces of an application. */
export class TracesResource {
  readonly #requester: Requester;

  /** @internal Created by {@link AqmClient}. */
  constructor(requester: Requester) {
    this.#requester = requester;
  }

  /**
   * Lists an application's traces, optionally in a time range or by `status`/`search`.
   * @example
   * ```ts
   * const { data } = await client.traces.list(applicationId, { status: 'error', start: new Date('2026-01-01') });
   * ```
   */
  list(
    applicationId: string,
    query?: TraceListParams,
    options?: RequestOptions,
  ): Promise<Page<TraceSummary>> {
    return this.#requester.page('traces.list', { params: { applicationId }, query }, options);
  }

  /**
   * Yields every trace matching `query`, page after page.
   * @example
   * ```ts
   * for await (const trace of client.traces.iterate(applicationId, { status: 'error' })) console.log(trace.traceId);
   * ```
   */
  iterate(
    applicationId: string,
    query?: TraceListParams,
    options?: RequestOptions,
  ): AsyncGenerator<TraceSummary, void, undefined> {
    return autoPage(query?.page ?? 1, async (page) => {
      const { data, pagination } = await this.list(applicationId, { ...query, page }, options);
      return { items: data, limit: pagination.limit, total: pagination.total };
    });
  }

  /**
   * Reads one trace with its spans and evaluation results.
   * @example
   * ```ts
   * const trace = await client.traces.get(applicationId, '4bf92f3577b34da6a3ce929d0e0e4736');
   * ```
   */
  get(applicationId: string, traceId: string, options?: RequestOptions): Promise<Trace> {
    return this.#requester.data('traces.get', { params: { applicationId, traceId } }, options);
  }
}
