import {
  type EvaluationResult,
  MAX_TRACES_PER_SUBMISSION,
  type Page,
  type SubmitEvaluationsResult,
} from '@aqm/wire';
import { BodyBuffers } from '../body-buffers.js';
import type { RequestOptions } from '../options.js';
import { autoPage } from '../paging.js';
import { inputError } from '../request.js';
import type { Requester } from '../requester.js';
import type { EvaluationListParams, SubmitEvaluationsParams } from '../types.js';

/** `client.evaluations`: submit traces for scoring and read the scores. */
export class EvaluationsResource {
  readonly #requester: Requester;
  readonly #bodies = new BodyBuffers();

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
   * Submits traces that the caller already holds as JSON, one string or UTF-8 byte array per trace
   * (an exporter keeps its queue that way), without parsing and re-serialising them: the request
   * body is `{"traces":[...]}` built from them. Only the count is checked here; the shapes are
   * checked by the service, whose 400 names each rejected trace as `traces[i]....` Retried like
   * {@link EvaluationsResource.submit}.
   * @example
   * ```ts
   * const trace = { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', prompt: 'Hi', response: 'Hello',
   *   startTime: '2026-01-01T00:00:00.000Z', endTime: '2026-01-01T00:00:01.000Z', status: 'success' };
   * await client.evaluations.submitSerialized(applicationId, [JSON.stringify(trace)]);
   * ```
   */
  submitSerialized(
    applicationId: string,
    traces: ReadonlyArray<string | Uint8Array>,
    options?: RequestOptions,
  ): Promise<SubmitEvaluationsResult> {
    const count = Array.isArray(traces) ? traces.length : 0;
    const bad = Array.isArray(traces)
      ? traces.findIndex((trace) => typeof trace !== 'string' && !(trace instanceof Uint8Array))
      : -1;
    if (count < 1 || count > MAX_TRACES_PER_SUBMISSION || bad !== -1) {
      const error =
        bad === -1
          ? {
              path: 'traces',
              message: `must hold 1 to ${MAX_TRACES_PER_SUBMISSION} traces (got ${count})`,
            }
          : { path: `traces[${bad}]`, message: 'must be a JSON string or its UTF-8 bytes' };
      return Promise.reject(inputError('evaluations.submit', [error]));
    }
    const rawBody = tracesBody(traces, this.#bodies);
    return this.#requester
      .data<SubmitEvaluationsResult>('evaluations.submit', { params: { applicationId }, rawBody }, options)
      .then((result) => {
        // Answered 2xx: the service has read the whole body, so its buffer can carry the next one.
        this.#bodies.release(rawBody);
        return result;
      });
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

const OPEN = '{"traces":[';
const CLOSE = ']}';

/**
 * `{"traces":[a,b,...]}` written into one buffer sized up front (reused across requests): a copy per
 * trace, several times cheaper than joining long strings or allocating a buffer per trace.
 */
function tracesBody(traces: ReadonlyArray<string | Uint8Array>, bodies: BodyBuffers): Buffer {
  const sizes = traces.map((trace) =>
    typeof trace === 'string' ? Buffer.byteLength(trace, 'utf8') : trace.byteLength,
  );
  const total = OPEN.length + CLOSE.length + traces.length - 1 + sizes.reduce((sum, size) => sum + size, 0);
  const body = bodies.take(total);
  let offset = body.write(OPEN, 0, 'latin1');
  traces.forEach((trace, index) => {
    if (index > 0) offset += body.write(',', offset, 'latin1');
    if (typeof trace === 'string') {
      offset += body.write(trace, offset, 'utf8');
    } else {
      body.set(trace, offset);
      offset += trace.byteLength;
    }
  });
  body.write(CLOSE, offset, 'latin1');
  return body;
}
