import {
  type AqmClient,
  AqmConnectionError,
  AqmRateLimitError,
  AqmServerError,
  type GuardrailEvaluationSummary,
  type TraceSummary,
} from '@aqm/client';
import type { Output } from '../render/output.js';
import { SeenIds } from './seen-ids.js';
import { formatTailLine, type TailedTrace } from './trace-line.js';

/** What `traces tail` follows and how. */
export interface TailOptions {
  client: AqmClient;
  output: Output;
  applicationId: string;
  /** Time between polls when all is well. */
  intervalMs: number;
  /** Also show traces that started at or after this time; otherwise only traces that arrive later. */
  since?: Date | undefined;
  /** Stop after showing this many traces. */
  max?: number | undefined;
  /** Poll once and stop. */
  once: boolean;
  /** Aborting it stops the follow cleanly (Ctrl-C). */
  signal?: AbortSignal | undefined;
  requestOptions: { signal?: AbortSignal };
  now: () => Date;
}

/** Traces remembered to recognise what was shown; older ones are forgotten. */
export const SEEN_CAPACITY = 10_000;
const PAGE_SIZE = 100;
/** Pages read per poll at most, so a flood cannot stall the follow. */
const MAX_PAGES_PER_POLL = 5;
const MAX_BACKOFF_MS = 30_000;
/** Guardrail records are looked up from a little before the follow started, for clock skew. */
const GUARDRAIL_WINDOW_MARGIN_MS = 5 * 60_000;

/** Waits `ms`, or less when the signal aborts. */
function wait(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    // Not unref'd: following is the whole job of the process, and Ctrl-C (the signal) ends it.
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** Whether a poll may succeed if tried again later. */
function isTransient(err: unknown): boolean {
  return (
    err instanceof AqmConnectionError || err instanceof AqmServerError || err instanceof AqmRateLimitError
  );
}

/** New traces since the last poll, oldest first: pages newest-first until an id already seen. */
async function unseenTraces(o: TailOptions, seen: SeenIds, start: Date | undefined): Promise<TraceSummary[]> {
  const fresh: TraceSummary[] = [];
  for (let page = 1; page <= MAX_PAGES_PER_POLL; page++) {
    const { data, pagination } = await o.client.traces.list(
      o.applicationId,
      { page, limit: PAGE_SIZE, ...(start && { start }) },
      o.requestOptions,
    );
    const unseen = data.filter((t) => !seen.has(t.traceId));
    fresh.push(...unseen);
    if (unseen.length < data.length || page >= pagination.totalPages) break;
  }
  return fresh.reverse();
}

/** The guardrail records of the given traces, grouped by traceId. */
async function guardrailsOf(
  o: TailOptions,
  traceIds: Set<string>,
  windowStart: Date,
): Promise<Map<string, GuardrailEvaluationSummary[]>> {
  const byTrace = new Map<string, GuardrailEvaluationSummary[]>();
  const end = new Date(o.now().getTime() + GUARDRAIL_WINDOW_MARGIN_MS);
  const { results } = await o.client.guardrails.evaluations.list(
    o.applicationId,
    { start: windowStart, end, limit: PAGE_SIZE },
    o.requestOptions,
  );
  for (const record of results) {
    if (!traceIds.has(record.traceId)) continue;
    byTrace.set(record.traceId, [...(byTrace.get(record.traceId) ?? []), record]);
  }
  return byTrace;
}

/** Reads a trace's scores and prints its line (or JSON object with `--json`). */
async function showTrace(
  o: TailOptions,
  trace: TraceSummary,
  guardrails: GuardrailEvaluationSummary[],
): Promise<void> {
  const detail = await o.client.traces.get(o.applicationId, trace.traceId, o.requestOptions);
  const item: TailedTrace = { trace, evaluationResults: detail.evaluationResults ?? [], guardrails };
  if (o.output.json) {
    o.output.line(JSON.stringify({ ...trace, evaluationResults: item.evaluationResults, guardrails }));
  } else {
    o.output.line(formatTailLine(item, o.output.palette));
  }
}

/**
 * Follows the traces of an application: polls the newest-first list every `intervalMs`, shows
 * each trace not seen before with its scores and guardrail outcomes, and backs off (doubling,
 * up to 30 s) while the service is unreachable or failing. Ends on abort, after `max` traces,
 * or after one poll with `once`.
 */
export async function tailTraces(o: TailOptions): Promise<void> {
  const seen = new SeenIds(SEEN_CAPACITY);
  const windowStart = new Date((o.since ?? o.now()).getTime() - GUARDRAIL_WINDOW_MARGIN_MS);
  // Without --since the first poll only learns what already exists (unless --once asks for it).
  let learning = o.since === undefined && !o.once;
  let announced = false;
  let shown = 0;
  let delay = o.intervalMs;
  while (!o.signal?.aborted) {
    try {
      const fresh = await unseenTraces(o, seen, o.since);
      if (learning) {
        for (const trace of fresh) seen.add(trace.traceId);
        learning = false;
      } else if (fresh.length > 0) {
        const guardrails = await guardrailsOf(o, new Set(fresh.map((t) => t.traceId)), windowStart);
        for (const trace of fresh) {
          await showTrace(o, trace, guardrails.get(trace.traceId) ?? []);
          // Marked only once shown: a poll that fails half-way shows the rest next time.
          seen.add(trace.traceId);
          shown++;
          if (o.max !== undefined && shown >= o.max) return;
        }
      }
      if (!announced && !o.once) {
        announced = true;
        o.output.note(
          `Following traces of application ${o.applicationId} every ${o.intervalMs} ms (Ctrl-C to stop).`,
        );
      }
      delay = o.intervalMs;
    } catch (err) {
      if (o.signal?.aborted) return;
      if (!isTransient(err) || o.once) throw err;
      const asked = err instanceof AqmRateLimitError ? err.retryAfterMs : undefined;
      delay = asked ?? Math.min(MAX_BACKOFF_MS, Math.max(delay * 2, o.intervalMs));
      o.output.note(
        `Poll failed (${(err as Error).message}); retrying in ${Math.round(delay / 100) / 10} s.`,
      );
    }
    if (o.once) return;
    await wait(delay, o.signal);
  }
}
