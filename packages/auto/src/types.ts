/**
 * Where `startAuto` stands after its startup lookup: sending (to `applicationId`), or off and why.
 * `applicationId` is `undefined` when `AQM_APPLICATION_NAME` could not be looked up yet because the
 * service could not be reached (or answered 408, 429, 5xx): tracing goes on, traces are kept (in
 * memory, then in `AQM_PERSIST_DIR` when set) and the name is looked up again when they are sent.
 */
export type AutoStatus =
  | { enabled: true; applicationId: string | undefined }
  | { enabled: false; reason: string };

/** Options of {@link startAuto}. The `--import`/`--require` entry points set them; app code rarely needs to. */
export interface StartAutoOptions {
  /**
   * Register the ESM loader hook (import-in-the-middle) so that an ESM app's `import` of `openai`
   * and `@anthropic-ai/sdk` is instrumented. Only useful before the app's imports, so the
   * `--import @aqm/auto/register` entry sets it. Default `false`.
   */
  esmLoaderHook?: boolean;
  /** Flush on `beforeExit`, `SIGINT` and `SIGTERM` (see the README's exit behaviour). Default `true`. */
  exitHooks?: boolean;
}

/** What {@link startAuto} returns. */
export interface AutoHandle {
  /**
   * Resolves once the startup lookup of the application is over (an `AQM_APPLICATION_NAME` is
   * looked up in the background): with its id; with `applicationId: undefined` when the service
   * could not be reached (traces are kept and the name looked up again when they are sent); or
   * with `enabled: false` and the reason when `@aqm/auto` is off (also after a definite answer to
   * the lookup: the key refused, 403, a base URL without the path prefix). Never rejects.
   */
  readonly ready: Promise<AutoStatus>;
  /**
   * Resolves once every instrumentation is in place. In the ESM build the LangChain handler is
   * loaded with `import()`, so this settles a moment after `startAuto` returns. Never rejects.
   */
  readonly instrumented: Promise<void>;
  /**
   * Sends every trace held now, waiting at most `AQM_FLUSH_TIMEOUT_MS`: what is not delivered by then
   * goes to `AQM_PERSIST_DIR`, or stays queued (said on stderr). Never rejects.
   *
   * @example
   * await handle.forceFlush();
   */
  forceFlush(): Promise<void>;
  /**
   * Flushes within `AQM_FLUSH_TIMEOUT_MS`, then takes everything down: processors, the provider it
   * registered (or its processor on yours), instrumentations, the LangChain handler, exit hooks.
   * Never rejects; later calls share the first.
   *
   * @example
   * await handle.shutdown();
   */
  shutdown(): Promise<void>;
}
