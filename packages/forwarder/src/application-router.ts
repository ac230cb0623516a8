import type { AqmClient } from '@aqm/client';
import { type AqmOtelOptions, resolveOptions, TracePipeline } from '@aqm/otel/pipeline';
import type { DiagLogger } from '@opentelemetry/api';
import { resolveApplicationByName } from './find-application.js';
import { type ApplicationRef, MAX_APPLICATION_NAME } from './resolve-options.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Settings of an {@link ApplicationRouter}. */
export interface ApplicationRouterOptions {
  client: AqmClient;
  pipelineOptions: AqmOtelOptions;
  defaultApplication: ApplicationRef | undefined;
  fromResource: boolean;
  maxApplications: number;
  /** Trace ids remembered to keep every span of a trace with the application of its first. */
  maxTraceRoutes: number;
  logger: DiagLogger;
}

/**
 * One `@aqm/otel` pipeline per application, chosen per trace. With `fromResource`, the resource's
 * `aqm.application.id`, else `aqm.application.name`, else `service.name` picks the application
 * (a name is found or created once, then cached); the first span or log record of a trace fixes
 * its application, so a trace that crosses services stays whole. Both caches are bounded.
 */
export class ApplicationRouter {
  readonly #options: ApplicationRouterOptions;
  readonly #pipelines = new Map<string, TracePipeline>();
  /** Insertion-ordered: the oldest route is forgotten first. */
  readonly #traceRoutes = new Map<string, TracePipeline>();
  readonly #default: TracePipeline | undefined;
  /** Stops the lookups still retrying when the forwarder closes. */
  readonly #closed = new AbortController();
  #overflowReported = false;

  /** Throws when a pipeline option is invalid (checked by `@aqm/otel`, naming it). */
  constructor(options: ApplicationRouterOptions) {
    this.#options = options;
    this.#default =
      options.defaultApplication === undefined ? undefined : this.#pipelineOf(options.defaultApplication);
  }

  /** Every pipeline, the default first. */
  get pipelines(): TracePipeline[] {
    return [...this.#pipelines.values()];
  }

  /**
   * The pipeline of a trace, given the attributes of the resource its span or log came with;
   * `undefined` when neither the resource nor the configuration names an application.
   */
  route(traceId: string, resource: Readonly<Record<string, unknown>>): TracePipeline | undefined {
    if (!this.#options.fromResource) return this.#default;
    const known = this.#traceRoutes.get(traceId);
    if (known !== undefined) return known;
    const ref = applicationOfResource(resource);
    const pipeline = ref === undefined ? this.#default : this.#pipelineOf(ref);
    if (pipeline !== undefined) {
      if (this.#traceRoutes.size >= this.#options.maxTraceRoutes) {
        const oldest = this.#traceRoutes.keys().next().value;
        if (oldest !== undefined) this.#traceRoutes.delete(oldest);
      }
      this.#traceRoutes.set(traceId, pipeline);
    }
    return pipeline;
  }

  /** Gives up the application lookups still retrying (after the pipelines have shut down). */
  close(): void {
    this.#closed.abort();
  }

  #pipelineOf(ref: ApplicationRef): TracePipeline | undefined {
    const key = 'id' in ref ? `id:${ref.id.toLowerCase()}` : `name:${ref.name}`;
    const existing = this.#pipelines.get(key);
    if (existing !== undefined) return existing;
    if (this.#pipelines.size >= this.#options.maxApplications) {
      if (!this.#overflowReported) {
        this.#overflowReported = true;
        this.#options.logger.warn(
          `More than maxApplications (${this.#options.maxApplications}) applications named by resources: ` +
            'traces of further ones go to the default application',
        );
      }
      return this.#default;
    }
    const { client, logger } = this.#options;
    let applicationId: string | Promise<string>;
    if ('id' in ref) applicationId = ref.id;
    else {
      const lookup = resolveApplicationByName(client, ref.name, logger, this.#closed.signal);
      lookup.then(
        (id) => logger.info(`Application "${ref.name}" is ${id}`),
        () => {}, // reported by the pipeline, once
      );
      applicationId = lookup;
    }
    const pipeline = new TracePipeline(
      resolveOptions({ ...this.#options.pipelineOptions, client, applicationId }),
      { logger },
    );
    this.#pipelines.set(key, pipeline);
    return pipeline;
  }
}

/** The application a resource names, if any. */
export function applicationOfResource(
  resource: Readonly<Record<string, unknown>>,
): ApplicationRef | undefined {
  const id = resource['aqm.application.id'];
  if (typeof id === 'string' && UUID.test(id)) return { id };
  for (const key of ['aqm.application.name', 'service.name']) {
    const name = resource[key];
    if (typeof name !== 'string') continue;
    const trimmed = name.trim();
    // The SDKs' placeholder when no service name is set names nothing.
    if (trimmed === '' || trimmed.length > MAX_APPLICATION_NAME || trimmed.startsWith('unknown_service'))
      continue;
    // Control characters are refused rather than shown: the name came from a sender.
    if (/\p{Cc}/u.test(trimmed)) continue;
    return { name: trimmed };
  }
  return undefined;
}
