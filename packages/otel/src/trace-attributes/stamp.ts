import { type Attributes, type Context, type Span, type TracerProvider, trace } from '@opentelemetry/api';
import { aqmDiag } from '../diag.js';
import type { ReadableSpan, SpanProcessor } from '../sdk-types.js';
import { AQM_METADATA_PREFIX, AQM_SESSION_ID, AQM_TAGS, AQM_USER_ID } from './names.js';
import { traceAttributesIn, unionTags } from './values.js';

/** Marks a span processor that copies `withAqmAttributes` values onto the spans it sees start. */
export const STAMPS_AQM_ATTRIBUTES = Symbol.for('@aqm/otel stamps trace attributes');

/**
 * Gives a starting span the `withAqmAttributes` values in effect in its parent context, leaving
 * alone what the span already carries (its own values win over the scope's; tags add up).
 * Never throws: a span that cannot be read or written is not the app's problem.
 */
export function stampSpan(span: Span, parentContext: Context): void {
  try {
    const values = traceAttributesIn(parentContext);
    if (values === undefined || !span.isRecording()) return;
    const own = ((span as Partial<ReadableSpan>).attributes ?? {}) as Attributes;
    const add: Attributes = {};
    if (values.userId !== undefined && own[AQM_USER_ID] === undefined) add[AQM_USER_ID] = values.userId;
    if (values.sessionId !== undefined && own[AQM_SESSION_ID] === undefined)
      add[AQM_SESSION_ID] = values.sessionId;
    for (const [key, value] of Object.entries(values.metadata ?? {})) {
      if (own[AQM_METADATA_PREFIX + key] === undefined) add[AQM_METADATA_PREFIX + key] = value;
    }
    if (values.tags !== undefined) {
      const ownTags = own[AQM_TAGS];
      const strings = Array.isArray(ownTags)
        ? ownTags.filter((tag): tag is string => typeof tag === 'string')
        : undefined;
      add[AQM_TAGS] = unionTags(strings, values.tags);
    }
    span.setAttributes(add);
  } catch {
    // never the app's problem
  }
}

/** The processor joined to a provider that has no `AqmSpanProcessor` (an `AqmSpanExporter` setup). */
class AttributeStamper implements SpanProcessor {
  readonly [STAMPS_AQM_ATTRIBUTES] = true;
  onStart(span: Span, parentContext: Context): void {
    stampSpan(span, parentContext);
  }
  onEnd(_span: ReadableSpan): void {}
  forceFlush(): Promise<void> {
    return Promise.resolve();
  }
  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}

interface ProviderInternals {
  addSpanProcessor?: (processor: SpanProcessor) => void;
  _activeSpanProcessor?: { _spanProcessors?: unknown };
  forceFlush?: unknown;
}

/** Providers already looked at: each is joined (or found to stamp already) once. */
const seen = new WeakSet<object>();

function stamps(processor: unknown): boolean {
  return typeof processor === 'object' && processor !== null && STAMPS_AQM_ATTRIBUTES in processor;
}

/**
 * Makes sure the registered tracer provider copies `withAqmAttributes` values onto starting
 * spans: nothing to do when one of its processors is an `AqmSpanProcessor` (processor setup,
 * `registerAqm()`, `@aqm/auto`); otherwise (an `AqmSpanExporter` behind a `BatchSpanProcessor`,
 * the NodeSDK's `traceExporter`) a processor that only copies them joins the provider, the way
 * `registerAqm()` joins one. Cheap after the first call per provider; never throws.
 */
export function ensureStamping(): void {
  try {
    const global = trace.getTracerProvider() as TracerProvider & { getDelegate?: () => TracerProvider };
    const provider = (
      typeof global.getDelegate === 'function' ? global.getDelegate() : global
    ) as TracerProvider & ProviderInternals;
    // The no-op provider (no SDK registered yet) only has getTracer: look again at the next call.
    if (typeof provider.forceFlush !== 'function' || seen.has(provider)) return;
    seen.add(provider);
    const list = provider._activeSpanProcessor?._spanProcessors;
    if (Array.isArray(list)) {
      if (!list.some(stamps)) list.push(new AttributeStamper());
      return;
    }
    if (typeof provider.addSpanProcessor === 'function') {
      provider.addSpanProcessor(new AttributeStamper());
      return;
    }
    aqmDiag.warn(
      'withAqmAttributes: the registered tracer provider does not let span processors be added, so only spans ' +
        'started by withLlmSpan get the values. Add `new AqmSpanProcessor()` to its `spanProcessors`.',
    );
  } catch {
    // never the app's problem
  }
}
