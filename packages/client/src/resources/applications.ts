import type {
  Application,
  ApplicationDetail,
  CreateApplicationBody,
  Page,
  UpdateApplicationBody,
  UpdatedApplication,
} from '@aqm/wire';
import type { RequestOptions } from '../options.js';
import { autoPage } from '../paging.js';
import type { Requester } from '../requester.js';
import type { ApplicationListParams } from '../types.js';

/** `client.applications`: register, list, read and rename applications. */
export class ApplicationsResource {
  readonly #requester: Requester;

  /** @internal Created by {@link AqmClient}. */
  constructor(requester: Requester) {
    this.#requester = requester;
  }

  /**
   * Lists the project's applications, newest first (`GET /applications`).
   * @example
   * ```ts
   * const { data, pagination } = await client.applications.list({ search: 'bot', limit: 50 });
   * ```
   */
  list(query?: ApplicationListParams, options?: RequestOptions): Promise<Page<Application>> {
    return this.#requester.page('applications.list', { query }, options);
  }

  /**
   * Yields every application matching `query`, fetching page after page as needed.
   * @example
   * ```ts
   * for await (const app of client.applications.iterate({ search: 'bot' })) console.log(app.name);
   * ```
   */
  iterate(
    query?: ApplicationListParams,
    options?: RequestOptions,
  ): AsyncGenerator<Application, void, undefined> {
    return autoPage(query?.page ?? 1, async (page) => {
      const { data, pagination } = await this.list({ ...query, page }, options);
      return { items: data, limit: pagination.limit, total: pagination.total };
    });
  }

  /**
   * Registers an application (`POST /applications`). Never retried: a repeat could create it twice.
   * @example
   * ```ts
   * const app = await client.applications.create({ name: 'support-bot', description: 'Helpdesk assistant' });
   * console.log(app.id);
   * ```
   */
  create(body: CreateApplicationBody, options?: RequestOptions): Promise<Application> {
    return this.#requester.data('applications.create', { body }, options);
  }

  /**
   * Reads an application with its monitoring and guardrails configuration.
   * @example
   * ```ts
   * const app = await client.applications.get(applicationId);
   * console.log(app.monitoring.metrics, app.guardrails.enable_guard_rails);
   * ```
   */
  get(applicationId: string, options?: RequestOptions): Promise<ApplicationDetail> {
    return this.#requester.data('applications.get', { params: { applicationId } }, options);
  }

  /**
   * Renames or re-describes an application (`PATCH`); at least one of `name`, `description`.
   * @example
   * ```ts
   * await client.applications.update(applicationId, { description: 'Helpdesk assistant, EU' });
   * ```
   */
  update(
    applicationId: string,
    body: UpdateApplicationBody,
    options?: RequestOptions,
  ): Promise<UpdatedApplication> {
    return this.#requester.data('applications.update', { params: { applicationId }, body }, options);
  }
}
