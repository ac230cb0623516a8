import { alert, aqmDiag } from './diag.js';
import { describeValue } from './option-checks.js';

/**
 * What {@link withAqmFlush} flushes: an {@link AqmSpanProcessor}, an {@link AqmSpanExporter},
 * `registerAqm().processor`, or a whole tracer provider (then every processor of it is flushed).
 */
export interface Flushable {
  forceFlush(): Promise<void>;
}

/**
 * Time kept back from a Lambda invocation's remaining time: a flush still waiting then is left to
 * the next invocation, so that the handler's answer is not turned into a timeout.
 */
export const LAMBDA_TIME_MARGIN_MS = 500;

/** The part of a Lambda `context` the wrapper reads. */
interface LambdaContextLike {
  getRemainingTimeInMillis?: () => number;
}

// `any[]`, not `never[]`: the handler's parameters are the app's to type. With `never[]`, a handler
// written without annotations (`async (event) => …`, JavaScript checked by TypeScript) got `never`
// for `event`, and `event.body` did not compile.
// biome-ignore lint/suspicious/noExplicitAny: the parameters of any serverless handler, as its runtime calls it
type AnyHandler = (...args: any[]) => unknown;

/**
 * Wraps a serverless handler (AWS Lambda, Google Cloud Functions, Netlify, any function whose
 * returned promise ends the invocation) so that each invocation flushes before it returns: the
 * handler runs, then `flushable.forceFlush()` is awaited (also when the handler threw), then its
 * result is returned or its error thrown. Once the runtime freezes the process, the invocation's
 * traces are already accepted by the service. With `serverless: true` on the processor, that is
 * one request for all of them (up to 100).
 *
 * A callback-style Lambda handler (`(event, context, callback)`) is turned into an async one: the
 * wrapper resolves with what the handler passes to `callback`, after the flush. When the context
 * has `getRemainingTimeInMillis()`, the wrapper stops waiting for the flush {@link LAMBDA_TIME_MARGIN_MS}
 * before the invocation's timeout (what is left goes with the next invocation's flush) and says so.
 * The flush never throws into the handler's result.
 *
 * Throws a `TypeError` when `flushable` has no `forceFlush` or `handler` is not a function.
 *
 * @example
 * const processor = new AqmSpanProcessor({ serverless: true });
 * new NodeTracerProvider({ spanProcessors: [processor] }).register();
 * export const handler = withAqmFlush(processor, async (event) => {
 *   return { statusCode: 200, body: await answer(event.body) };
 * });
 */
export function withAqmFlush<H extends AnyHandler>(
  flushable: Flushable,
  handler: H,
): (...args: Parameters<H>) => Promise<Awaited<ReturnType<H>>> {
  if (typeof (flushable as Partial<Flushable> | null)?.forceFlush !== 'function') {
    throw new TypeError(
      `Expected \`flushable\` to have a forceFlush() method (an AqmSpanProcessor, say), got ${describeValue(flushable)}`,
    );
  }
  if (typeof handler !== 'function') {
    throw new TypeError(`Expected \`handler\` to be a function, got ${describeValue(handler)}`);
  }
  // A rest-parameter function: its length is 0, so Lambda runtimes treat it as an async handler.
  return async function aqmFlushed(this: unknown, ...args: Parameters<H>): Promise<Awaited<ReturnType<H>>> {
    try {
      return (await invoke(handler, this, args)) as Awaited<ReturnType<H>>;
    } finally {
      await flushWithin(flushable, remainingMs(args[1]));
    }
  };
}

/** Runs the handler; a callback-style one (three parameters or more) settles through its callback. */
function invoke(handler: AnyHandler, self: unknown, args: unknown[]): Promise<unknown> {
  if (handler.length < 3) return Promise.resolve().then(() => handler.apply(self, args as never[]));
  return new Promise((resolve, reject) => {
    const callback = (error: unknown, result?: unknown) => {
      if (error !== undefined && error !== null) reject(error);
      else resolve(result);
    };
    const rest = args.slice(3);
    const returned = handler.apply(self, [args[0], args[1], callback, ...rest] as never[]);
    // An async handler that declares the callback but returns its result is taken at its word too.
    if (typeof (returned as PromiseLike<unknown> | undefined)?.then === 'function') {
      (returned as PromiseLike<unknown>).then(resolve, reject);
    }
  });
}

/** The time left before a Lambda invocation times out, minus the margin; `undefined` elsewhere. */
function remainingMs(context: unknown): number | undefined {
  try {
    const remaining = (context as LambdaContextLike | undefined)?.getRemainingTimeInMillis?.();
    return typeof remaining === 'number' && Number.isFinite(remaining)
      ? Math.max(0, remaining - LAMBDA_TIME_MARGIN_MS)
      : undefined;
  } catch {
    return undefined; // not a Lambda context we can read
  }
}

/** Awaits the flush, at most `boundMs`; never rejects (a provider's forceFlush may). */
async function flushWithin(flushable: Flushable, boundMs: number | undefined): Promise<void> {
  // Its own catch: a flush that fails after the bound is not an unhandled rejection.
  const flushed = Promise.resolve()
    .then(() => flushable.forceFlush())
    .then(
      () => true,
      (error: unknown) => {
        alert(
          aqmDiag,
          'warn',
          'serverless-flush-failed',
          `The flush after this invocation failed: ${String(error)}`,
        );
        return true;
      },
    );
  if (boundMs === undefined) {
    await flushed;
    return;
  }
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), boundMs);
    timer.unref(); // the flush holds the process while it waits
  });
  const done = await Promise.race([flushed, bound]);
  clearTimeout(timer);
  if (!done) {
    alert(
      aqmDiag,
      'warn',
      'serverless-flush-late',
      `The flush after this invocation did not finish within the invocation's remaining time (${boundMs} ms): the traces still queued go with a later flush, unless the process ends first.`,
    );
  }
}
