/**
 * The key of the method by which the exit flush shuts a processor down within what is left of its
 * own bound, instead of the processor's `shutdownTimeoutMs` (`SpanProcessor.shutdown()` takes no
 * argument). A registered symbol keeps it off the documented surface and still matches across the
 * ESM and CJS builds of this package.
 * @internal
 */
export const SHUTDOWN_WITHIN: unique symbol = Symbol.for('@aqm/otel.shutdownWithin');

/** Something that can shut down within a given time (an AqmSpanProcessor). @internal */
export interface ShutsDownWithin {
  [SHUTDOWN_WITHIN](timeoutMs: number): Promise<void>;
}

/**
 * Shuts `processor` down within `timeoutMs` when it can (an AqmSpanProcessor, of any copy of this
 * package), else with its own `shutdown()`. Never rejects.
 * @internal
 *
 * @example
 * await shutDownWithin(processor, 1000);
 */
export async function shutDownWithin(
  processor: { shutdown(): Promise<void> },
  timeoutMs: number,
): Promise<void> {
  try {
    const within = (processor as Partial<ShutsDownWithin>)[SHUTDOWN_WITHIN];
    await (typeof within === 'function' ? within.call(processor, timeoutMs) : processor.shutdown());
  } catch {
    // Never the app's problem: the processor says what it could not do.
  }
}
