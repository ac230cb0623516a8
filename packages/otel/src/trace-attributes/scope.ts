import { context } from '@opentelemetry/api';
import { describeValue } from '../option-checks.js';
import { type AqmAttributes, checkTraceAttributes } from './check.js';
import { ensureStamping } from './stamp.js';
import { mergeTraceAttributes, TRACE_ATTRIBUTES_KEY, traceAttributesIn } from './values.js';

/**
 * Runs `fn` in a context that gives `userId`, `sessionId`, `metadata` and `tags` to every span
 * started inside it, awaited work included (with the AsyncLocalStorage context manager every
 * Node setup registers), as `aqm.user.id`, `aqm.session.id`, `aqm.metadata.<key>` and `aqm.tags`;
 * the trace's record gets them as `userId`, `sessionId` and `metadata` (tags as
 * `metadata['aqm.tags']`). Nested calls merge: an inner id replaces the outer one, metadata merges
 * key by key (inner wins), tags add up. A span's own values (say `withLlmSpan`'s options) win over
 * the scope's. Returns what `fn` returns (its promise, for an async `fn`).
 *
 * The values reach spans through `AqmSpanProcessor` (also what `registerAqm()` and `@aqm/auto`
 * add); with `AqmSpanExporter` alone, the first call adds a small processor that only copies them
 * to the registered tracer provider's processors.
 *
 * Throws a `TypeError` naming the field when one has the wrong type (`userId: 42`,
 * `metadata: { plan: {…} }`), or when `fn` is not a function; values beyond a bound are cut with
 * a `diag` warning (ids at 256 characters, keys and tags at 200, at most 64 entries and 64 tags).
 *
 * @example
 * app.post('/chat', (req, res, next) =>
 *   withAqmAttributes({ userId: req.user.id, sessionId: req.body.conversationId, tags: ['chat'] }, async () => {
 *     res.json(await answer(req.body.question)); // every span of the call carries them
 *   }).catch(next),
 * );
 */
export function withAqmAttributes<T>(attributes: AqmAttributes, fn: () => T): T {
  if (typeof attributes !== 'object' || attributes === null || Array.isArray(attributes))
    throw new TypeError(`Expected \`attributes\` to be an object, got ${describeValue(attributes)}`);
  if (typeof fn !== 'function')
    throw new TypeError(`Expected \`fn\` to be a function, got ${describeValue(fn)}`);
  const values = checkTraceAttributes('withAqmAttributes', attributes);
  ensureStamping();
  const active = context.active();
  const merged = mergeTraceAttributes(traceAttributesIn(active), values);
  return context.with(active.setValue(TRACE_ATTRIBUTES_KEY, merged), fn);
}
