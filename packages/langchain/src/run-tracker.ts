/**
 * The span side of LangChain runs: starting a run's span under the right parent, keeping it while
 * the run is open, ending it with what the run produced, and ending runs that never report an end.
 */
import { type Attributes, context, SpanStatusCode, trace } from '@opentelemetry/api';
import { ATTR, OPERATION } from './attributes.js';
import { handlerDiag } from './diag.js';
import { ModelRunSlot } from './model-run-context.js';
import { type EvictionReason, type OpenRun, OpenRuns } from './open-runs.js';
import type { ResolvedHandlerOptions } from './options.js';
import { configAttributes } from './run-config.js';
import { identityAttributes, type SpanStart } from './run-start.js';

const EVICTION_WARNING_EVERY = 1000;

/** What LangChain hands a run's start callback besides the run itself: its config's metadata and tags. */
export interface RunConfig {
  metadata: unknown;
  tags: unknown;
}

/** Open runs and their spans, for one handler. */
export class RunTracker {
  readonly #options: ResolvedHandlerOptions;
  readonly #runs: OpenRuns;
  #evictions = 0;

  constructor(options: ResolvedHandlerOptions) {
    this.#options = options;
    this.#runs = new OpenRuns(options.maxOpenRuns, options.maxRunAgeMs, (runId, run, reason) =>
      this.#evicted(runId, run, reason),
    );
  }

  /** How many runs are open. */
  get openRunCount(): number {
    return this.#runs.size;
  }

  /**
   * Starts a run's span: under its parent run's span when that run is open, else under the span
   * active now (a root run joins the caller's trace, e.g. an HTTP request's). Every run gets its
   * config's tags and metadata as `aqm.tags` / `aqm.metadata.*`; a root run also gets `session.id` /
   * `user.id` from its metadata. A run id already open is ignored.
   *
   * @example
   * tracker.start(runId, parentRunId, { metadata, tags }, chainStart(serialized, inputs, runType, runName, options));
   */
  start(runId: unknown, parentRunId: unknown, config: RunConfig, start: SpanStart): void {
    if (typeof runId !== 'string' || this.#runs.get(runId) !== undefined) return;
    const parent = typeof parentRunId === 'string' ? this.#runs.get(parentRunId) : undefined;
    const active = context.active();
    const parentContext = parent === undefined ? active : trace.setSpan(active, parent.span);
    const { metadata, tags } = config;
    const attributes: Attributes = {
      ...start.attributes,
      ...configAttributes(metadata, tags, this.#options.maxValueChars),
      ...(parent === undefined ? identityAttributes(metadata) : {}),
    };
    const span = this.#options.tracer.startSpan(start.name, { kind: start.kind, attributes }, parentContext);
    // A chat model's call runs under its run's span from here on (model-run-context.ts).
    const slot = trace.getSpan(active);
    if (slot instanceof ModelRunSlot && start.operation === OPERATION.chat) slot.fill(span);
    this.#runs.add(runId, {
      span,
      name: start.name,
      operation: start.operation,
      model: start.model,
      startedAt: Date.now(),
      streamed: '',
      streamedDropped: 0,
    });
  }

  /**
   * Ends an open run's span after `record` has written what the run produced; an unknown run (never
   * started here, or already ended as "run never ended") is ignored.
   *
   * @example
   * tracker.end(runId, (run) => endChainRun(run, outputs, options));
   */
  end(runId: unknown, record: (run: OpenRun) => void): void {
    const run = typeof runId === 'string' ? this.#runs.take(runId) : undefined;
    if (run === undefined) return;
    try {
      record(run);
    } finally {
      run.span.end();
    }
  }

  /**
   * Keeps a streamed token of a model run (up to the value cap; the rest is only counted).
   *
   * @example
   * tracker.addToken(runId, 'Hel');
   */
  addToken(runId: unknown, token: unknown): void {
    const run = typeof runId === 'string' ? this.#runs.get(runId) : undefined;
    if (run === undefined || typeof token !== 'string' || !this.#options.captureContent) return;
    const room = this.#options.maxValueChars - run.streamed.length;
    if (room > 0) run.streamed += token.slice(0, room);
    run.streamedDropped += Math.max(0, token.length - Math.max(room, 0));
  }

  /**
   * Turns an open chain run into an agent run (`invoke_agent {name}`), for chains that report agent
   * actions whatever their name.
   *
   * @example
   * tracker.markAgent(runId);
   */
  markAgent(runId: unknown): OpenRun | undefined {
    const run = typeof runId === 'string' ? this.#runs.get(runId) : undefined;
    if (run === undefined || run.operation !== OPERATION.invokeWorkflow) return run;
    const name = run.name.slice(`${OPERATION.invokeWorkflow} `.length);
    run.operation = OPERATION.invokeAgent;
    run.name = `${OPERATION.invokeAgent} ${name}`;
    run.span.updateName(run.name);
    run.span.setAttributes({ [ATTR.operationName]: OPERATION.invokeAgent, [ATTR.agentName]: name });
    return run;
  }

  #evicted(runId: string, run: OpenRun, reason: EvictionReason): void {
    run.span.setAttribute(ATTR.errorType, 'run_never_ended');
    run.span.setStatus({ code: SpanStatusCode.ERROR, message: 'run never ended' });
    run.span.end();
    this.#evictions += 1;
    // The first, then one in a thousand: a leaking app must not flood its logs.
    if (this.#evictions % EVICTION_WARNING_EVERY === 1) {
      const why = reason === 'too_old' ? 'open longer than maxRunAgeMs' : 'maxOpenRuns reached';
      handlerDiag.warn(
        `ended LangChain run ${runId} as "run never ended" (${why}); ${this.#evictions} run(s) ended this way so far`,
      );
    }
  }
}
