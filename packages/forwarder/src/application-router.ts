import { createHash } from 'node:crypto';
import { type Dirent, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { AqmClient } from '@aqm/client';
import {
  type ApplicationIdLookup,
  type AqmOtelOptions,
  resolveOptions,
  type TracePipeline,
} from '@aqm/otel/pipeline';
import type { DiagLogger } from '@opentelemetry/api';
import { ConfiguredApplication } from './configured-application.js';
import { resolveApplicationByName } from './find-application.js';
import { type ApplicationRef, MAX_APPLICATION_NAME } from './resolve-options.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Where, under `persistDir`, each application named by a resource keeps its spill folder. */
const APPLICATIONS_FOLDER = 'applications';
/** How long a name found missing (or refused) is answered from memory before it is looked up again. */
const REFUSED_NAME_TTL_MS = 60_000;

/** Settings of an {@link ApplicationRouter}. */
export interface ApplicationRouterOptions {
  client: AqmClient;
  pipelineOptions: AqmOtelOptions;
  defaultApplication: ApplicationRef | undefined;
  fromResource: boolean;
  /** Whether a name from a resource that matches no application creates one upstream. */
  createApplications: boolean;
  maxApplications: number;
  /** Trace ids remembered to keep every span of a trace with the application of its first. */
  maxTraceRoutes: number;
  logger: DiagLogger;
  /** Creates a pipeline (the forwarder's admission settings go here). */
  createPipeline(options: ReturnType<typeof resolveOptions>): TracePipeline;
}

/**
 * Where the spans of a trace go: a pipeline; an application whose name is still being looked up
 * (`pending`: answer "retry later"); or nowhere, with the reason (`refused`: said in
 * `partial_success`).
 */
export type Destination =
  | { kind: 'pipeline'; pipeline: TracePipeline }
  | { kind: 'pending'; settled: Promise<void>; again(): Destination }
  | { kind: 'refused'; reason: string };

type Entry = { state: 'ready'; pipeline: TracePipeline } | { state: 'pending'; settled: Promise<void> };

/** Names found missing remembered at once: the oldest is forgotten first. */
const MAX_REFUSED_NAMES = 1024;

/**
 * One `@aqm/otel` pipeline per application, chosen per trace. With `fromResource`, the resource's
 * `aqm.application.id`, else `aqm.application.name`, else `service.name` picks the application: an
 * id is used as it is; a name is looked up (and created only with `createApplications`) before any
 * trace of it is taken, so a name that names nothing is refused visibly rather than answered 200
 * and dropped later. The first span or log record of a trace fixes its application, so a trace
 * that crosses services stays whole. Applications are bounded by `maxApplications`; both caches too.
 */
export class ApplicationRouter {
  readonly #options: ApplicationRouterOptions;
  readonly #entries = new Map<string, Entry>();
  /** Names that name no application (or that the key may not use), answered from memory for a while. */
  readonly #refused = new Map<string, { reason: string; untilMs: number }>();
  /** Insertion-ordered: the oldest route is forgotten first. */
  readonly #traceRoutes = new Map<string, TracePipeline>();
  readonly #default: TracePipeline | undefined;
  /** Stops the lookups still retrying when the forwarder closes. */
  readonly #closed = new AbortController();
  readonly #warned = new Set<string>();

  /** Throws when a pipeline option is invalid (checked by `@aqm/otel`, naming it). */
  constructor(options: ApplicationRouterOptions) {
    this.#options = options;
    const configured = options.defaultApplication;
    if (configured === undefined) this.#default = undefined;
    else {
      // The configured application: a name is found or created (the operator named it), at start
      // and by its pipeline when it has traces to send and the service could not be reached yet.
      let applicationId: string | ApplicationIdLookup;
      if ('id' in configured) applicationId = configured.id;
      else {
        const named = new ConfiguredApplication(options.client, configured.name, options.logger);
        named.start(this.#closed.signal);
        applicationId = named.lookup;
      }
      // The configured application spills to persistDir itself, as it always has.
      this.#default = this.#newPipeline(applicationId, undefined);
      this.#entries.set(keyOf(configured), { state: 'ready', pipeline: this.#default });
    }
    if (options.fromResource) this.#resumeSpilled();
  }

  /**
   * Starts a pipeline for each application that left spill files in a folder of its own (a
   * forwarder that stopped before delivering them): they are sent without waiting for that
   * application to send again. Only folders named as {@link spillFolderOf} names them count.
   */
  #resumeSpilled(): void {
    const { persistDir } = this.#options.pipelineOptions;
    if (persistDir === undefined) return;
    let entries: Dirent[];
    try {
      entries = readdirSync(join(persistDir, APPLICATIONS_FOLDER), { withFileTypes: true });
    } catch {
      return; // none yet (or unreadable: the pipelines say so when they open their folders)
    }
    for (const entry of entries) {
      if (!entry.isDirectory() || !UUID.test(entry.name)) continue; // a link or a stranger: left alone
      if (this.#entries.size >= this.#options.maxApplications) break;
      this.#start(keyOf({ id: entry.name }), { id: entry.name });
    }
  }

  /** Every pipeline, the default first. */
  get pipelines(): TracePipeline[] {
    // A Set: an application found by name may share the pipeline it already had by id.
    const all = new Set<TracePipeline>();
    for (const entry of this.#entries.values()) if (entry.state === 'ready') all.add(entry.pipeline);
    return [...all];
  }

  /**
   * Where a trace goes, given the attributes of the resource its span or log came with. A
   * pipeline chosen is remembered for the trace.
   */
  destination(traceId: string, resource: Readonly<Record<string, unknown>>): Destination {
    if (!this.#options.fromResource) return this.#defaultDestination();
    const known = this.#traceRoutes.get(traceId);
    if (known !== undefined) return { kind: 'pipeline', pipeline: known };
    const ref = applicationOfResource(resource);
    const destination = ref === undefined ? this.#defaultDestination() : this.#destinationOf(ref);
    if (destination.kind === 'pipeline') this.remember(traceId, destination.pipeline);
    return destination;
  }

  /** Remembers the pipeline of a trace, so its later spans follow it. */
  remember(traceId: string, pipeline: TracePipeline): void {
    if (!this.#options.fromResource || this.#traceRoutes.has(traceId)) return;
    if (this.#traceRoutes.size >= this.#options.maxTraceRoutes) {
      const oldest = this.#traceRoutes.keys().next().value;
      if (oldest !== undefined) this.#traceRoutes.delete(oldest);
    }
    this.#traceRoutes.set(traceId, pipeline);
  }

  /** Gives up the application lookups still retrying (after the pipelines have shut down). */
  close(): void {
    this.#closed.abort();
  }

  #defaultDestination(): Destination {
    return this.#default === undefined
      ? {
          kind: 'refused',
          reason:
            'whose resource names no application (no aqm.application.id, aqm.application.name or ' +
            'service.name) while the forwarder has no default application',
        }
      : { kind: 'pipeline', pipeline: this.#default };
  }

  #destinationOf(ref: ApplicationRef): Destination {
    const key = keyOf(ref);
    const refused = this.#refused.get(key);
    if (refused !== undefined) {
      if (Date.now() < refused.untilMs) return { kind: 'refused', reason: refused.reason };
      this.#refused.delete(key);
    }
    let entry = this.#entries.get(key);
    if (entry === undefined) {
      // Names refused are not counted: a sender naming applications that do not exist must not
      // use up maxApplications for those that do.
      if (this.#entries.size >= this.#options.maxApplications) {
        const bound = `more applications than maxApplications (${this.#options.maxApplications})`;
        this.#warnOnce(
          'max-applications',
          `Spans naming ${bound} are refused; raise maxApplications to take them`,
        );
        return { kind: 'refused', reason: `refused: they name ${bound}` };
      }
      entry = this.#start(key, ref);
    }
    if (entry.state === 'ready') return { kind: 'pipeline', pipeline: entry.pipeline };
    return { kind: 'pending', settled: entry.settled, again: () => this.#destinationOf(ref) };
  }

  #start(key: string, ref: ApplicationRef): Entry {
    if ('id' in ref) {
      const entry: Entry = { state: 'ready', pipeline: this.#newPipeline(ref.id, ref.id) };
      this.#entries.set(key, entry);
      return entry;
    }
    const { name } = ref;
    const settled = this.#lookup(name, this.#options.createApplications).then(
      (id) => {
        // The same application may already have a pipeline by its id (resumed from its spill folder).
        const byId = this.#entries.get(keyOf({ id }));
        const pipeline = byId?.state === 'ready' ? byId.pipeline : this.#newPipeline(id, id);
        this.#entries.set(key, { state: 'ready', pipeline });
      },
      (error: unknown) => {
        const why = error instanceof Error ? error.message : String(error);
        this.#entries.delete(key);
        if (this.#refused.size >= MAX_REFUSED_NAMES) {
          const oldest = this.#refused.keys().next().value;
          if (oldest !== undefined) this.#refused.delete(oldest);
        }
        this.#refused.set(key, { reason: `refused: ${why}`, untilMs: Date.now() + REFUSED_NAME_TTL_MS });
        this.#warnOnce(`name:${name}`, `Spans of application "${name}" are refused: ${why}`);
      },
    );
    const entry: Entry = { state: 'pending', settled };
    this.#entries.set(key, entry);
    return entry;
  }

  #lookup(name: string, create: boolean): Promise<string> {
    const { client, logger } = this.#options;
    const lookup = resolveApplicationByName(client, name, logger, this.#closed.signal, create);
    lookup.then(
      (id) => logger.info(`Application "${name}" is ${id}`),
      () => {}, // reported by the caller
    );
    return lookup;
  }

  /**
   * A pipeline for an application. `spillId` (an application named by a resource) gives it a spill
   * folder of its own under `persistDir`: spill files carry no application, so a folder shared by
   * two applications would let one replay, and send as its own, the traces of the other.
   */
  #newPipeline(applicationId: string | ApplicationIdLookup, spillId: string | undefined): TracePipeline {
    const { client, pipelineOptions } = this.#options;
    const persistDir =
      pipelineOptions.persistDir === undefined || spillId === undefined
        ? pipelineOptions.persistDir
        : spillFolderOf(pipelineOptions.persistDir, spillId);
    return this.#options.createPipeline(
      resolveOptions({ ...pipelineOptions, client, applicationId, persistDir }),
    );
  }

  /** One warning per kind: a sender repeating the same refused name must not flood the log. */
  #warnOnce(kind: string, message: string): void {
    if (this.#warned.has(kind) || this.#warned.size >= 1000) return;
    this.#warned.add(kind);
    this.#options.logger.warn(message);
  }
}

/**
 * The spill folder of an application named by a resource: `<persistDir>/applications/<id>`. An id
 * that is not a UUID (the service chose it) is hashed, so that it cannot name a path of its own.
 */
export function spillFolderOf(persistDir: string, applicationId: string): string {
  const name = UUID.test(applicationId)
    ? applicationId.toLowerCase()
    : `x${createHash('sha256').update(applicationId, 'utf8').digest('hex')}`;
  return join(persistDir, APPLICATIONS_FOLDER, name);
}

function keyOf(ref: ApplicationRef): string {
  return 'id' in ref ? `id:${ref.id.toLowerCase()}` : `name:${ref.name}`;
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
