/** Where `startAuto` stands once the application is known: sending, or off and why. */
export type AutoStatus = { enabled: true; applicationId: string } | { enabled: false; reason: string };

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
   * Resolves once the application id is known (an `AQM_APPLICATION_NAME` is looked up in the
   * background), or with `enabled: false` and the reason when `@aqm/auto` is off. Never rejects.
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
