import { createRequire } from 'node:module';
import type { ReadableSpan, SpanProcessor } from '@opentelemetry/sdk-trace-base';

/**
 * Express and OpenTelemetry are development dependencies of `@aqm/express`, not of the
 * workspace root, so they are loaded from that package's dependencies.
 */
const fromExpressPackage = createRequire(new URL('../../../packages/express/package.json', import.meta.url));

type ExpressModule = typeof import('express');
type SdkNode = typeof import('@opentelemetry/sdk-trace-node');
type OtelApi = typeof import('@opentelemetry/api');

export const express = fromExpressPackage('express') as ExpressModule;
export const express4 = fromExpressPackage('express4') as ExpressModule;
export const { BatchSpanProcessor, NodeTracerProvider } = fromExpressPackage(
  '@opentelemetry/sdk-trace-node',
) as SdkNode;
// The API keeps its state on a global, so this copy and the one @aqm/express loads agree.
export const { SpanKind, trace } = fromExpressPackage('@opentelemetry/api') as OtelApi;

/** Tells waiters when a span they are interested in ends, so tests wait on the event rather than on time. */
export class SpanEndNotifier implements SpanProcessor {
  #ended: ReadableSpan[] = [];
  #waiters: Array<{ predicate: (span: ReadableSpan) => boolean; resolve: (span: ReadableSpan) => void }> = [];

  onStart(): void {}

  onEnd(span: ReadableSpan): void {
    this.#ended.push(span);
    this.#waiters = this.#waiters.filter((waiter) => {
      if (!waiter.predicate(span)) return true;
      waiter.resolve(span);
      return false;
    });
  }

  forceFlush(): Promise<void> {
    return Promise.resolve();
  }

  shutdown(): Promise<void> {
    return Promise.resolve();
  }

  /** Resolves with the first ended span matching `predicate`; rejects if none ends within 10 s. */
  waitFor(predicate: (span: ReadableSpan) => boolean, what: string): Promise<ReadableSpan> {
    const done = this.#ended.find(predicate);
    if (done !== undefined) return Promise.resolve(done);
    return new Promise((resolve, reject) => {
      // A bound on a failure, not a guess at timing: the span normally ends within milliseconds.
      const timer = setTimeout(() => reject(new Error(`no span ${what} ended within 10 s`)), 10_000);
      this.#waiters.push({
        predicate,
        resolve: (span) => {
          clearTimeout(timer);
          resolve(span);
        },
      });
    });
  }
}
