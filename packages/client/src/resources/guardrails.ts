import type { GuardrailsConfig, UpdateGuardrailsBody, ValidatorCatalogEntry } from '@aqm/wire';
import type { RequestOptions } from '../options.js';
import type { Requester } from '../requester.js';
import { GuardrailEvaluationsResource } from './guardrail-evaluations.js';

/** `client.guardrails`: guardrail configuration, the validator catalog and validation records. */
export class GuardrailsResource {
  readonly #requester: Requester;
  /** The guardrail validation records (`list`, `iterate`, `get`). */
  readonly evaluations: GuardrailEvaluationsResource;

  /** @internal Created by {@link AqmClient}. */
  constructor(requester: Requester) {
    this.#requester = requester;
    this.evaluations = new GuardrailEvaluationsResource(requester);
  }

  /**
   * Reads an application's guardrails configuration.
   * @example
   * ```ts
   * const { enable_guard_rails, input_validators } = await client.guardrails.get(applicationId);
   * ```
   */
  get(applicationId: string, options?: RequestOptions): Promise<GuardrailsConfig> {
    return this.#requester.data('guardrails.get', { params: { applicationId } }, options);
  }

  /**
   * Configures guardrails (`PUT`); validator arrays given replace the stored ones.
   * @example
   * ```ts
   * await client.guardrails.update(applicationId, {
   *   enable_guard_rails: true,
   *   input_validators: [{ type: 'pii', on_fail: 'mask', config: { entities: ['EMAIL_ADDRESS'] } }],
   * });
   * ```
   */
  update(
    applicationId: string,
    body: UpdateGuardrailsBody,
    options?: RequestOptions,
  ): Promise<GuardrailsConfig> {
    return this.#requester.data('guardrails.update', { params: { applicationId }, body }, options);
  }

  /**
   * The catalog of validators usable as a validator `type`.
   * @example
   * ```ts
   * const types = (await client.guardrails.validators()).map((v) => v.type);
   * ```
   */
  validators(options?: RequestOptions): Promise<ValidatorCatalogEntry[]> {
    return this.#requester.data('guardrails.validators', {}, options);
  }
}
