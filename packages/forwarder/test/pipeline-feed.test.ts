import type { ReadableSpan, TracePipeline } from '@aqm/otel/pipeline';
import { describe, expect, it } from 'vitest';
import { PipelineFeed } from '../src/pipeline-feed.js';
import { RootGrace } from '../src/root-grace.js';

const span = (name: string) => ({ name }) as ReadableSpan;
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

function recorder(): { pipeline: TracePipeline; calls: string[] } {
  const calls: string[] = [];
  const pipeline = {
    addSpans: (spans: ReadableSpan[]) => {
      calls.push(spans.map((s) => s.name).join(','));
      return [];
    },
    addLog: (log: { eventName: string }) => {
      calls.push(`log:${log.eventName}`);
    },
  } as unknown as TracePipeline;
  return { pipeline, calls };
}

describe('PipelineFeed', () => {
  it('hands items over after the current turn, a slice per turn, in order, roots after their spans', async () => {
    const { pipeline, calls } = recorder();
    const feed = new PipelineFeed(new RootGrace(0, 10), 2);
    feed.addSpans(pipeline, [span('a'), span('b'), span('c')]);
    feed.holdRoots([[pipeline, span('root')]]);
    feed.addLogs([
      [pipeline, { traceId: 't', spanId: 's', eventName: 'gen_ai.choice', body: {}, attributes: {} }],
    ]);
    expect(calls).toEqual([]);
    expect(feed.pending).toBe(5);
    await nextTurn();
    expect(calls).toEqual(['a,b']);
    await nextTurn();
    expect(calls).toEqual(['a,b', 'c', 'root']);
    await nextTurn();
    expect(calls).toEqual(['a,b', 'c', 'root', 'log:gen_ai.choice']);
    expect(feed.pending).toBe(0);
  });

  it('calls done once the last slice of spans, and the log records, are in their pipeline', () => {
    const { pipeline, calls } = recorder();
    const feed = new PipelineFeed(new RootGrace(0, 10), 2);
    feed.addSpans(pipeline, [span('a'), span('b'), span('c')], () => calls.push('spans done'));
    feed.addLogs(
      [[pipeline, { traceId: 't', spanId: 's', eventName: 'gen_ai.choice', body: {}, attributes: {} }]],
      () => calls.push('logs done'),
    );
    feed.drain();
    expect(calls).toEqual(['a,b', 'c', 'spans done', 'log:gen_ai.choice', 'logs done']);
  });

  it('drain() hands everything over at once', () => {
    const { pipeline, calls } = recorder();
    const feed = new PipelineFeed(new RootGrace(0, 10), 1);
    feed.addSpans(pipeline, [span('a'), span('b')]);
    feed.holdRoots([[pipeline, span('root')]]);
    feed.drain();
    expect(calls).toEqual(['a', 'b', 'root']);
    expect(feed.pending).toBe(0);
  });
});
