import type { TracePipeline } from '@aqm/otel/pipeline';
import type { Reservation } from './admission.js';
import type { PipelineFeed, RootToHold } from './pipeline-feed.js';
import type { RequestGroup } from './request-groups.js';
import type { RequestEntry } from './request-log.js';

/**
 * Hands a group to the feed. Its reservation ends in parts: a trace with spans or log records
 * besides its root is counted by the pipeline as open once those are in; a trace brought by its
 * root alone, and the root's bytes, once the root leaves the grace.
 */
export function feedGroup(
  feed: PipelineFeed,
  group: RequestGroup,
  pipeline: TracePipeline,
  reservation: Reservation,
  bytesPerItem: number,
  entry?: RequestEntry,
): void {
  const opened = new Set<string>();
  for (const span of group.spans) opened.add(span.spanContext().traceId);
  for (const log of group.logs) opened.add(log.traceId);
  const openedPart = {
    traces: opened.size,
    bytes: (group.spans.length + group.logs.length) * bytesPerItem,
  };
  // Handed over after the answer; roots last: a root completes its trace, so the other spans of
  // this request must be in first.
  // With a request log, each hand-over is waited for before the log's file may go.
  const handedOver = (then: () => void) => {
    const release = entry?.hold();
    return release === undefined
      ? then
      : () => {
          then();
          release();
        };
  };
  if (group.spans.length > 0)
    feed.addSpans(
      pipeline,
      group.spans,
      handedOver(() => reservation.release(openedPart)),
    );
  if (group.logs.length > 0)
    feed.addLogs(
      group.logs.map((log) => [pipeline, log]),
      handedOver(() => reservation.release(openedPart)),
    );
  const roots = group.roots.map((root): RootToHold => {
    const traceId = root.spanContext().traceId;
    const alone = !opened.has(traceId);
    opened.add(traceId);
    const part = { traces: alone ? 1 : 0, bytes: bytesPerItem };
    return [pipeline, root, handedOver(() => reservation.release(part))];
  });
  feed.holdRoots(roots);
}
