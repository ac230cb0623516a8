import type { GuardrailEvaluation, GuardrailEvaluationPage, GuardrailEvaluationSummary } from '@aqm/wire';
import type { RequestOptions } from '../options.js';
import { autoPage } from '../paging.js';
import type { Requester } from '../requester.js';
import type { GuardrailEvaluationListParams } from '../types.js';

/** `client.guardrails.evaluations`: the records of guardrail validations. */
export class GuardrailEvaluationsResource {
  readonly #requester: Requester;

  /** @internal Created by {@link AqmClient}. */
  constructor(requester: Requester) {
    this.#requester = requester;
  }

  /**
   * Lists guardrail validation records in an inclusive time range (`start`, `end` required).
   * @example
   * ```ts
   * const { results, count } = await client.guardrails.evaluations.list(applicationId, {
   *   start: new Date(Date.now() - 86_400_000),
   *   end: new Date(),
   *   passStatus: 'error',
   * });
   * ```
   */
  list(
    applicationId: string,
    query: GuardrailEvaluationListParams,
    options?: RequestOptions,
  ): Promise<GuardrailEvaluationPage> {
    return this.#requester.data('guardrails.evaluations.list', { params: { applicationId }, query }, options);
  }

  /**
   * Yields every record matching `query`, page after page.
   * @example
   * ```ts
   * for await (const record of client.guardrails.evaluations.iterate(applicationId, { start, end })) {
   *   console.log(record.id, record.passStatus);
   * }
   * ```
   */
  iterate(
    applicationId: string,
    query: GuardrailEvaluationListParams,
    options?: RequestOptions,
  ): AsyncGenerator<GuardrailEvaluationSummary, void, undefined> {
    return autoPage(query?.page ?? 1, async (page) => {
      const result = await this.list(applicationId, { ...query, page }, options);
      return { items: result.results, limit: result.limit, total: result.count };
    });
  }

  /**
   * Reads one guardrail evaluation record with all its validator components.
   * @example
   * ```ts
   * const record = await client.guardrails.evaluations.get(applicationId, evaluationId);
   * console.log(record.allComponents);
   * ```
   */
  get(applicationId: string, evaluationId: string, options?: RequestOptions): Promise<GuardrailEvaluation> {
    return this.#requester.data(
      'guardrails.evaluations.get',
      { params: { applicationId, evaluationId } },
      options,
    );
  }
}
