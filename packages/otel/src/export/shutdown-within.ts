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
