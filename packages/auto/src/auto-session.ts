import { AqmClient } from '@aqm/client';
import { AqmLogRecordProcessor, type AqmOtelOptions, AqmSpanProcessor, registerAqm } from '@aqm/otel';
import { installExitFlush, shutDownWithin } from '@aqm/otel/pipeline';
import { DiagConsoleLogger, diag, trace } from '@opentelemetry/api';
import { LoggerProvider } from '@opentelemetry/sdk-logs';
import {
  namedApplication,
  type ResolvedApplication,
  resolveApplication,
} from './application/resolve-application.js';
import type { AutoConfig } from './config/env-config.js';
import { registerEsmLoaderHook } from './instrumentation/esm-loader-hook.js';
import { attachLangChainHandler } from './instrumentation/langchain-handler.js';
import { enableLlmInstrumentations } from './instrumentation/llm-instrumentations.js';
import { appRequire, canResolve, requireFromHere } from './runtime/app-require.js';
import { createBackgroundAgent } from './runtime/background-agent.js';
import { GlobalTracerProvider } from './tracing/global-tracer-provider.js';
import { registerOwnProvider } from './tracing/own-provider.js';
import { handOverOnAppRegistration, type TraceRegistrar } from './tracing/provider-handover.js';
import { registeredProvider } from './tracing/registered-provider.js';
import { RoutingLogRecordProcessor } from './tracing/routing-log-processor.js';
import type { AutoStatus, StartAutoOptions } from './types.js';
import { AUTO_VERSION } from './version.js';
import { warn } from './warn.js';

/** A processor that sends traces, and how to take it down with what it is attached to. */
interface Sink {
  processor: AqmSpanProcessor;
  shutdown(): Promise<void>;
}

type Undo = () => void | Promise<void>;

/** Time limit of each lookup request (the client retries connection errors, 429 and 5xx twice). */
const LOOKUP_TIMEOUT_MS = 10_000;
/** Bounds of the send requests' time limit, which follows `AQM_FLUSH_TIMEOUT_MS` between them. */
const MIN_REQUEST_TIMEOUT_MS = 1000;
const MAX_REQUEST_TIMEOUT_MS = 10_000;

/**
 * The processors' `shutdownTimeoutMs`: a little under `AQM_FLUSH_TIMEOUT_MS`, the bound after which
 * a signal is raised again. At its own deadline a shutdown still writes what is left to
 * `AQM_PERSIST_DIR` (or says on stderr that it was lost); with the same bound, the signal killed
 * the process first, and the traces an outage held were lost in silence, disk or not.
 */
function shutdownTimeoutOf(flushTimeoutMs: number): number {
  return Math.max(1, flushTimeoutMs - Math.min(1000, Math.floor(flushTimeoutMs / 4)));
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The `trace` singletons of every copy of the OpenTelemetry API the app's SDK may register through. */
function traceRegistrars(): TraceRegistrar[] {
  const registrars: TraceRegistrar[] = [trace];
  for (const require of [requireFromHere, appRequire()]) {
    try {
      if (canResolve(require, '@opentelemetry/api')) {
        registrars.push((require('@opentelemetry/api') as { trace: TraceRegistrar }).trace);
      }
    } catch {
      // An API copy that fails to load cannot register anything either.
    }
  }
  return registrars;
}

/**
 * One running `@aqm/auto`: the processors, the tracer provider it registered or joined, the
 * instrumentations, the LangChain handler and the exit hooks, taken down in reverse order by
 * `shutdown()`. The constructor undoes what it did and rethrows when a step fails.
 */
export class AutoSession {
  readonly ready: Promise<AutoStatus>;
  readonly instrumented: Promise<void>;
  readonly #config: AutoConfig;
  readonly #undo: Undo[] = [];
  readonly #sinks: Sink[] = [];
  readonly #router = new RoutingLogRecordProcessor();
  readonly #lookup = new AbortController();
  readonly #processorOptions: AqmOtelOptions;
  readonly #onShutdown: () => void;
  #shutdownPromise: Promise<void> | undefined;

  constructor(config: AutoConfig, options: StartAutoOptions, onShutdown: () => void) {
    this.#config = config;
    this.#onShutdown = onShutdown;
    try {
      if (config.logLevel !== undefined) {
        diag.setLogger(new DiagConsoleLogger(), { logLevel: config.logLevel, suppressOverrideMessage: true });
      }
      // Before any instrumentation exists: they hook ESM imports through this loader.
      if (options.esmLoaderHook === true) registerEsmLoaderHook();

      // Its connections never hold the app open: the exit flush holds it, within its bound. Closed
      // last (undo runs in reverse), once the processors and the lookup are done with it.
      const agent = createBackgroundAgent();
      this.#undo.push(() => agent.destroy());
      const client = new AqmClient({
        apiKey: config.apiKey,
        baseUrl: config.baseUrl,
        timeoutMs: LOOKUP_TIMEOUT_MS,
        userAgent: `aqm-auto/${AUTO_VERSION}`,
        dispatcher: agent,
      });
      this.#undo.push(() => client.close());
      // Follows the bound: a request to a service that does not answer gives way to the next try
      // well within a flush (its socket no longer holds the process: see createBackgroundAgent).
      const requestTimeoutMs = Math.min(
        MAX_REQUEST_TIMEOUT_MS,
        Math.max(MIN_REQUEST_TIMEOUT_MS, config.flushTimeoutMs),
      );
      const sendClient = new AqmClient({
        apiKey: config.apiKey,
        baseUrl: config.baseUrl,
        timeoutMs: requestTimeoutMs,
        maxRetries: 0, // the processors own the retry policy
        userAgent: `aqm-auto/${AUTO_VERSION}`,
        dispatcher: agent,
      });
      this.#undo.push(() => sendClient.close());
      // Runs before the client closes (undo runs in reverse): a lookup still hanging is cut short.
      this.#undo.push(() => this.#lookup.abort());
      // A name is looked up now, and again by the processors when they have traces to send and the
      // service could not be reached meanwhile: both share the lookup in flight and the id found.
      const named =
        'name' in config.application ? namedApplication(client, config.application.name) : undefined;
      const lookup = resolveApplication(client, config.application, { signal: this.#lookup.signal, named });
      // Handles a definite failure (one warning, then shutdown), also when a later step throws.
      this.ready = this.#whenResolved(lookup);
      this.#processorOptions = {
        client: sendClient,
        // Tracing starts now; the first request looks the name up when its id is not known yet,
        // and a service still down keeps the traces as in any outage (memory, then disk).
        applicationId: named === undefined ? (config.application as { id: string }).id : named.lookup,
        environment: config.environment,
        appVersion: config.appVersion,
        sampleRate: config.sampleRate,
        serverless: config.serverless,
        persistMode: config.persistMode,
        shutdownTimeoutMs: shutdownTimeoutOf(config.flushTimeoutMs),
        // `auto.forceFlush()` is bounded like the exit: what is not delivered by then goes to
        // AQM_PERSIST_DIR, or stays queued (and is said).
        flushTimeoutMs: config.flushTimeoutMs,
        requestTimeoutMs,
      };

      const loggerProvider = new LoggerProvider({ processors: [this.#router] });
      this.#undo.push(() => loggerProvider.shutdown());
      this.#undo.push(() => Promise.all(this.#sinks.map((sink) => sink.shutdown())).then(() => undefined));
      this.#setUpTracing();

      const tracerProvider = new GlobalTracerProvider();
      this.#undo.push(
        enableLlmInstrumentations({ captureContent: config.captureContent, tracerProvider, loggerProvider }),
      );
      this.instrumented = this.#attachLangChain(tracerProvider);

      if (options.exitHooks !== false) {
        this.#undo.push(
          installExitFlush({
            flush: () => this.forceFlush(),
            shutdown: (timeoutMs) => this.#shutdownWithin(timeoutMs),
            hasPending: () => this.#hasPending(),
            hasQueued: () => this.#sinks.some((sink) => sink.processor.stats().queuedTraces > 0),
            timeoutMs: config.flushTimeoutMs,
          }),
        );
      }
    } catch (error) {
      void this.shutdown();
      throw error;
    }
  }

  /** Sends everything held by every processor. */
  async forceFlush(): Promise<void> {
    await Promise.all(this.#sinks.map((sink) => sink.processor.forceFlush()));
  }

  /** Whether any processor holds a trace: open (being assembled) or queued (not yet accepted). */
  #hasPending(): boolean {
    return this.#sinks.some((sink) => {
      const stats = sink.processor.stats();
      return stats.openTraces > 0 || stats.queuedTraces > 0;
    });
  }

  /**
   * The exit's shutdown: the processors within `timeoutMs` (what is left of `AQM_FLUSH_TIMEOUT_MS`),
   * then everything else (their own shutdown, called again from there, shares the first).
   */
  async #shutdownWithin(timeoutMs: number): Promise<void> {
    await Promise.all(this.#sinks.map((sink) => shutDownWithin(sink.processor, timeoutMs)));
    await this.shutdown();
  }

  /** Takes everything down (flushing within `AQM_FLUSH_TIMEOUT_MS`). Never rejects; later calls share the first. */
  shutdown(): Promise<void> {
    this.#shutdownPromise ??= this.#runUndo().finally(this.#onShutdown);
    return this.#shutdownPromise;
  }

  async #runUndo(): Promise<void> {
    for (const undo of this.#undo.splice(0).reverse()) {
      try {
        await undo();
      } catch (error) {
        warn(`shutting down: ${messageOf(error)}`);
      }
    }
  }

  /** Joins the app's provider when there is one, else registers ours and hands it over later if need be. */
  #setUpTracing(): void {
    if (registeredProvider() !== undefined) {
      this.#adoptRegisteredProvider();
      return;
    }
    const processor = new AqmSpanProcessor(this.#processorOptions);
    const own = registerOwnProvider(processor, this.#config.serviceName);
    this.#router.target = new AqmLogRecordProcessor(processor);
    this.#sinks.push({ processor, shutdown: () => own.shutdown() });
    this.#undo.push(
      handOverOnAppRegistration(traceRegistrars(), {
        before: () => own.yieldGlobals(),
        after: (registered) => (registered ? this.#adoptRegisteredProvider() : own.reclaim()),
        onError: (error) => warn(`joining the app's tracer provider failed: ${messageOf(error)}`),
      }),
    );
  }

  /** Adds a processor to the registered provider (`registerAqm` does it) and routes content logs to it. */
  #adoptRegisteredProvider(): void {
    // The session's own exit flush covers this processor too: not a second one from registerAqm.
    const registration = registerAqm({ ...this.#processorOptions, logs: false, flushOnExit: false });
    if (registration.tracing === 'not-attached') {
      warn(
        "the app's tracer provider does not let span processors be added, so no LLM trace is sent. " +
          'Create it with `spanProcessors: [new AqmSpanProcessor()]` (from @aqm/otel) instead.',
      );
    }
    this.#router.target = new AqmLogRecordProcessor(registration.processor);
    this.#sinks.push({ processor: registration.processor, shutdown: () => registration.shutdown() });
  }

  async #attachLangChain(tracerProvider: GlobalTracerProvider): Promise<void> {
    const attachment = await attachLangChainHandler(appRequire(), {
      tracerProvider,
      captureContent: this.#config.captureContent,
    });
    if (attachment.state === 'failed') {
      warn(`LangChain runs are not traced: attaching the handler failed: ${messageOf(attachment.error)}`);
    }
    if (this.#shutdownPromise !== undefined) attachment.detach();
    else this.#undo.push(() => attachment.detach());
  }

  async #whenResolved(lookup: Promise<ResolvedApplication>): Promise<AutoStatus> {
    try {
      const { applicationId, warning } = await lookup;
      // A service that cannot be reached yet is an outage like any other: the pipeline holding the
      // traces says it once, with the cause and what became of them (after a minute of failures,
      // or at exit). Said here too, it was the same failure printed twice; a debug line is enough.
      if (warning !== undefined && this.#shutdownPromise === undefined) diag.debug(`@aqm/auto: ${warning}`);
      return { enabled: true, applicationId };
    } catch (error) {
      if (this.#shutdownPromise !== undefined) return { enabled: false, reason: 'shut down' };
      const reason = messageOf(error);
      // The reason may quote a message that ends its own sentence: one period, not two.
      warn(`${reason.replace(/\.+$/, '')}. No LLM trace is sent.`);
      void this.shutdown();
      return { enabled: false, reason };
    }
  }
}
