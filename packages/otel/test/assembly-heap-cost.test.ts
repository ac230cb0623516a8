import { describe, expect, it } from 'vitest';
import { ATTRIBUTE_BYTES, EVENT_BYTES, LINK_BYTES, SPAN_BYTES } from '../src/assembly/heap-cost.js';
import { ValueTrimmer } from '../src/assembly/held-span.js';
import type { ReadableSpan, TimedEvent } from '../src/sdk-types.js';
import { fakeLlmSpan, randomTraceId } from './export-helpers/fake-span.js';

const LIMIT = 1000;
const sharedResource = { attributes: { 'service.name': 'shop' } };

/** A fake span with these attributes and parts, and a resource shared by default. */
function span(attributes: Record<string, unknown>, extra: Partial<ReadableSpan> & { links?: unknown } = {}) {
  return { ...fakeLlmSpan(randomTraceId(), attributes), resource: sharedResource, ...extra } as ReadableSpan;
}

/** What a span costs more than the same span without `extra` (resource counted beforehand). */
function costOf(extra: Record<string, unknown>, parts: Partial<ReadableSpan> & { links?: unknown } = {}) {
  const trimmer = new ValueTrimmer(LIMIT);
  trimmer.span(span({}));
  return trimmer.span(span(extra, parts)).bytes - trimmer.span(span({})).bytes;
}

// What each part costs on the heap (heap-cost.ts), rather than its text alone (issue #26).
describe('what a held span is counted for', () => {
  it('counts a span at least its fixed heap cost, and each attribute beyond its text', () => {
    const trimmer = new ValueTrimmer(LIMIT);
    expect(trimmer.span(span({})).bytes).toBeGreaterThanOrEqual(SPAN_BYTES);
    const flags = Object.fromEntries(Array.from({ length: 100 }, (_, k) => [`f${k}`, k % 2 === 0]));
    expect(costOf(flags)).toBeGreaterThanOrEqual(100 * ATTRIBUTE_BYTES);
  });

  it('counts a string holding a character past U+00FF at two bytes a character', () => {
    const narrow = costOf({ text: 'é'.repeat(900) });
    const wide = costOf({ text: `${'é'.repeat(899)}🚚`.slice(0, 900) });
    expect(narrow).toBeGreaterThanOrEqual(900);
    expect(wide - narrow).toBeGreaterThanOrEqual(900);
  });

  it('counts a cut value at what is kept of it', () => {
    const cut = costOf({ text: `${'注'.repeat(5000)}` });
    expect(cut).toBeGreaterThanOrEqual(2 * LIMIT);
    expect(cut).toBeLessThan(2 * (LIMIT + 512) + ATTRIBUTE_BYTES + 64);
  });

  it('counts events with their attributes, and links only on a span held as it is', () => {
    const event: TimedEvent = {
      name: 'exception',
      time: [1, 0],
      attributes: { 'exception.stacktrace': 's'.repeat(500) },
    };
    expect(costOf({}, { events: [event, event] })).toBeGreaterThanOrEqual(2 * (EVENT_BYTES + 500));
    const link = {
      context: { traceId: 'a'.repeat(32), spanId: 'b'.repeat(16), traceFlags: 1 },
      attributes: { k: 'v' },
    };
    expect(costOf({}, { links: [link, link, link] })).toBeGreaterThanOrEqual(3 * LINK_BYTES);
    // A span with a value to cut is held as a copy, which keeps no links.
    const long = 'x'.repeat(5000);
    expect(costOf({ long }, { links: [link, link, link] })).toBe(costOf({ long }));
  });

  it('counts a resource once for the spans that share it, and again for each new one', () => {
    const trimmer = new ValueTrimmer(LIMIT);
    const decoded = () => ({ attributes: { 'service.name': 'shop', 'host.name': 'h'.repeat(2000) } });
    const first = decoded();
    const a = trimmer.span(span({}, { resource: first })).bytes;
    const b = trimmer.span(span({}, { resource: first })).bytes;
    const c = trimmer.span(span({}, { resource: decoded() })).bytes;
    expect(a - b).toBeGreaterThanOrEqual(2000);
    expect(c).toBe(a);
  });

  it('does not read a resource whose attributes are a getter (the SDK computes them)', () => {
    const trimmer = new ValueTrimmer(LIMIT);
    let reads = 0;
    const resource = {
      get attributes() {
        reads += 1;
        return {};
      },
    };
    trimmer.span(span({}, { resource }));
    expect(reads).toBe(0);
  });
});
