import { type Attributes, type Context, createContextKey } from '@opentelemetry/api';
import {
  AQM_METADATA_PREFIX,
  AQM_SESSION_ID,
  AQM_TAGS,
  AQM_USER_ID,
  MAX_TAGS,
  type TraceAttributes,
} from './names.js';

/**
 * Where {@link withAqmAttributes} keeps its values in the OpenTelemetry context. `createContextKey`
 * is `Symbol.for`, so every copy of `@aqm/otel` in an app reads the same key.
 */
export const TRACE_ATTRIBUTES_KEY = createContextKey('@aqm/otel trace attributes');

/** The values in effect in `ctx` (set by the enclosing `withAqmAttributes` calls), if any. */
export function traceAttributesIn(ctx: Context): TraceAttributes | undefined {
  const value = ctx.getValue(TRACE_ATTRIBUTES_KEY);
  return typeof value === 'object' && value !== null ? (value as TraceAttributes) : undefined;
}

/** Tags of `first` then those of `second` not in it, at most {@link MAX_TAGS}. */
export function unionTags(
  first: readonly string[] | undefined,
  second: readonly string[] | undefined,
): string[] | undefined {
  if (first === undefined || second === undefined) return first?.slice() ?? second?.slice();
  const out = first.slice(0, MAX_TAGS);
  for (const tag of second) if (out.length < MAX_TAGS && !out.includes(tag)) out.push(tag);
  return out;
}

/**
 * `inner` over `outer`: an id given inside replaces the one outside, metadata is merged key by key
 * (the inner value winning), tags are the union (outer ones first).
 */
export function mergeTraceAttributes(
  outer: TraceAttributes | undefined,
  inner: TraceAttributes,
): TraceAttributes {
  if (outer === undefined) return inner;
  const metadata =
    outer.metadata === undefined || inner.metadata === undefined
      ? (inner.metadata ?? outer.metadata)
      : { ...outer.metadata, ...inner.metadata };
  return {
    userId: inner.userId ?? outer.userId,
    sessionId: inner.sessionId ?? outer.sessionId,
    metadata,
    tags: unionTags(outer.tags, inner.tags),
  };
}

/** The `aqm.*` span attributes of `values` (see `names.ts`). */
export function aqmSpanAttributes(values: TraceAttributes): Attributes {
  const attributes: Attributes = {};
  if (values.userId !== undefined) attributes[AQM_USER_ID] = values.userId;
  if (values.sessionId !== undefined) attributes[AQM_SESSION_ID] = values.sessionId;
  for (const [key, value] of Object.entries(values.metadata ?? {}))
    attributes[AQM_METADATA_PREFIX + key] = value;
  if (values.tags !== undefined && values.tags.length > 0) attributes[AQM_TAGS] = [...values.tags];
  return attributes;
}
