import { SpanKind } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { prepareTraceRecord } from '../src/mapping/build-record.js';
import { maskPII } from '../src/privacy/mask.js';
import { chatSpan } from './mapping-helpers/chat-span.js';
import { buildTrace, json, type SpanSpec } from './mapping-helpers/spans.js';

const root = (children: SpanSpec[], attributes: SpanSpec['attributes'] = {}): SpanSpec => ({
  name: 'POST /chat',
  kind: SpanKind.SERVER,
  attributes: { 'http.request.method': 'POST', 'url.path': '/chat', ...attributes },
  children,
});

const cases: Array<[string, SpanSpec, number]> = [
  ['a two-span chat', root([chatSpan('What is the status of order 7?', 'It ships tomorrow.')]), 32_768],
  ['values longer than maxValueChars', root([chatSpan('q'.repeat(5000), 'a'.repeat(3000))]), 1000],
  ['non-ASCII and JSON escapes', root([chatSpan('Grüße "東京" \\ 😀\n'.repeat(40), 'ok')]), 32_768],
  [
    'many spans with events and arrays',
    root(
      Array.from({ length: 30 }, (_, i) =>
        chatSpan(`question ${i}`, `answer ${i}`, { 'gen_ai.response.finish_reasons': ['stop'] }),
      ),
      { 'session.id': 's-1', metadata: json({ tier: 'gold' }) },
    ),
    32_768,
  ],
];

describe('prepareTraceRecord: the size floor', () => {
  it.each(cases)('is a lower bound of the JSON bytes for %s', (_label, spec, maxValueChars) => {
    for (const mask of [undefined, maskPII]) {
      const pending = prepareTraceRecord(buildTrace(spec).spans, [], { maxValueChars, mask });
      const record = pending?.build();
      if (pending === undefined || record === undefined) throw new Error('expected a record');
      const bytes = Buffer.byteLength(JSON.stringify(record), 'utf8');
      expect(pending.minBytes).toBeLessThanOrEqual(bytes);
      expect(pending.minBytes).toBeGreaterThan(0);
    }
  });

  it('counts the string attributes when no mask can shorten them', () => {
    const spec = root([chatSpan('q'.repeat(4000), 'a'.repeat(2000))]);
    const plain = prepareTraceRecord(buildTrace(spec).spans, [], { maxValueChars: 32_768 });
    const masked = prepareTraceRecord(buildTrace(spec).spans, [], { maxValueChars: 32_768, mask: maskPII });
    expect(plain?.minBytes).toBeGreaterThan(6000);
    expect(masked?.minBytes).toBeLessThan(1000);
  });

  it('is undefined for a trace that becomes no record (no LLM span)', () => {
    const spec: SpanSpec = { name: 'GET /health', kind: SpanKind.SERVER, attributes: {} };
    expect(prepareTraceRecord(buildTrace(spec).spans, [], { maxValueChars: 100 })).toBeUndefined();
  });
});
