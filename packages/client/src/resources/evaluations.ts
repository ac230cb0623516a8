import type { EvaluationResult, Page, SubmitEvaluationsResult } from '@aqm/wire';
import type { RequestOptions } from '../options.js';
import { autoPage } from '../paging.js';
import type { Requester } from '../requester.js';
import type { EvaluationListParams, SubmitEvaluationsParams } from '../types.js';

/** `client.evaluations`: submit traces for scoring and read the scores. */
export class EvaluationsResource {
  readonly #requester: Requester;

  /** @internal Created by {@link AqmClient}. */
  constructor(requester: Requester) {
    this.#requester = requester;
  }

  /**
   * Submits 1 to 100 prompt/response traces to be scored. Retried on transient failures: the
   * service treats a resubmitted `traceId` as the same trace.
   * @example
   * ```ts
   * await client.evaluations.submit(applicationId, {
   *   traces: [{
   *     traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
   *     prompt: 'What is our refund policy?',
   *     response: 'Refunds are possible within 30 days.',
   *     startTime: new Date(Date.now() - 1200),
   *     endTime: new Date(),
   *     status: 'success',
   *   }],
   * });
   * ```
   */
  submit(
    applicationId: string,
    body: SubmitEvaluationsParams,
    options?: RequestOptions,
  ): Promise<SubmitEvaluationsResult> {
    return this.#requester.data('evaluations.submit', { params: { applicationId }, body }, options);
  }

  /**
   * Lists evaluation results, optionally by time range, `traceId` or `metric`.
   * @example
   * ```ts
   * const { data } = await client.evaluations.list(applicationId, { metric: 'faithfulness' });
   * ```
   */
  list(
    applicationId: string,
    query?: EvaluationListParams,
    options?: RequestOptions,
  ): Promise<Page<EvaluationResult>> {
    return this.#requester.page('evaluations.list', { params: { applicationId }, query }, options);
  }

  /**
   * Yields every evaluation result matching `query`, page after page.
   * @example
   * ```ts
   * for await (const result of client.evaluations.iterate(applicationId, { traceId })) console.log(result.score);
   * ```
   */
  iterate(
    applicationId: string,
    query?: EvaluationListParams,
    options?: RequestOptions,
  ): AsyncGenerator<EvaluationResult, void, undefined> {
    return autoPage(query?.page ?? 1, async (page) => {
      const { data, pagination } = await this.list(applicationId, { ...query, page }, options);
      return { items: data, limit: pagination.limit, total: pagination.total };
    });
  }
}
