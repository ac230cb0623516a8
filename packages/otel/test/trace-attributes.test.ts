import { context, DiagLogLevel, diag, propagation, ROOT_CONTEXT, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { afterEach, describe, expect, it } from 'vitest';
import { resetAlertsForTests } from '../src/diag.js';
import { AqmSpanProcessor } from '../src/processor.js';
import { checkTraceAttributes } from '../src/trace-attributes/check.js';
import { withAqmAttributes } from '../src/trace-attributes/scope.js';
import { mergeTraceAttributes } from '../src/trace-attributes/values.js';
import { CaptureLogger } from './export-helpers/capture-logger.js';
import { chatSpan, map } from './mapping-helpers/chat-span.js';
import { buildTrace } from './mapping-helpers/spans.js';

afterEach(() => {
  trace.disable();
  context.disable();
  propagation.disable();
  diag.disable();
  resetAlertsForTests();
});

describe('checkTraceAttributes', () => {
  it('cuts what is beyond a bound and says so through diag, naming the field', () => {
    const logs = new CaptureLogger();
    diag.setLogger(logs, { logLevel: DiagLogLevel.WARN, suppressOverrideMessage: true });
    const checked = checkTraceAttributes('withAqmAttributes', {
      userId: 'u'.repeat(300),
      metadata: { ['k'.repeat(250)]: 1 },
      tags: Array.from({ length: 70 }, (_, i) => `tag-${i}`),
    });
    expect(checked.userId).toHaveLength(256);
    expect(Object.keys(checked.metadata ?? {})[0]).toHaveLength(200);
    expect(checked.tags).toHaveLength(64);
    expect(logs.at('warn')).toEqual([
      '@aqm/otel withAqmAttributes: `userId` cut to 256 characters (it had 300)',
      `@aqm/otel withAqmAttributes: \`metadata.${'k'.repeat(250)}\` cut to 200 characters (it had 250)`,
      '@aqm/otel withAqmAttributes: `tags` has more than 64 tags: 6 left out',
    ]);
  });

  it('leaves out undefined, null and empty ids, and repeated tags', () => {
    expect(
      checkTraceAttributes('t', { userId: undefined, sessionId: null, tags: ['a', 'a'], metadata: {} }),
    ).toEqual({
      tags: ['a'],
    });
    expect(checkTraceAttributes('t', { userId: '' })).toEqual({});
  });

  it('throws a TypeError naming the field for a wrong type', () => {
    expect(() => checkTraceAttributes('t', { metadata: [] as never })).toThrow(
      new TypeError('Expected `metadata` to be an object of strings, numbers and booleans, got an array'),
    );
    expect(() => checkTraceAttributes('t', { metadata: { n: Number.NaN } })).toThrow(
      /`metadata\.n` to be a string, a finite number or a boolean, got `NaN`/,
    );
    expect(() => checkTraceAttributes('t', { userId: 7 as never })).toThrow(TypeError);
  });
});

describe('mergeTraceAttributes', () => {
  it('inner ids replace outer ones, metadata merges key by key (inner wins), tags add up', () => {
    expect(
      mergeTraceAttributes(
        { userId: 'outer', sessionId: 's', metadata: { a: 1, b: 1 }, tags: ['x', 'y'] },
        { userId: 'inner', metadata: { b: 2 }, tags: ['y', 'z'] },
      ),
    ).toEqual({ userId: 'inner', sessionId: 's', metadata: { a: 1, b: 2 }, tags: ['x', 'y', 'z'] });
  });
});

/** A provider registered globally, with the AsyncLocalStorage context manager, and its ended spans. */
function registered(...processors: SpanProcessor[]) {
  const exporter = new InMemorySpanExporter();
  const provider = new NodeTracerProvider({
    spanProcessors: [...processors, new SimpleSpanProcessor(exporter)],
  });
  provider.register();
  const list = (provider as unknown as { _activeSpanProcessor: { _spanProcessors: unknown[] } })
    ._activeSpanProcessor._spanProcessors;
  return { exporter, list };
}

describe('withAqmAttributes on a provider without AqmSpanProcessor', () => {
  it('joins one copy-only processor to the registered provider, once; spans keep their own values', async () => {
    const { exporter, list } = registered();
    const tracer = trace.getTracer('t');
    await withAqmAttributes({ userId: 'scope', metadata: { k: 'scope' }, tags: ['scope'] }, async () => {
      await new Promise((resolve) => setImmediate(resolve));
      tracer.startSpan('plain').end();
      tracer
        .startSpan('own', {
          attributes: { 'aqm.user.id': 'own', 'aqm.metadata.k': 'own', 'aqm.tags': ['own'] },
        })
        .end();
    });
    withAqmAttributes({}, () => {});
    expect(list).toHaveLength(2);
    tracer.startSpan('outside', {}, ROOT_CONTEXT).end();
    const byName = Object.fromEntries(
      exporter.getFinishedSpans().map((span) => [span.name, span.attributes]),
    );
    expect(byName.plain).toEqual({
      'aqm.user.id': 'scope',
      'aqm.metadata.k': 'scope',
      'aqm.tags': ['scope'],
    });
    expect(byName.own).toEqual({
      'aqm.user.id': 'own',
      'aqm.metadata.k': 'own',
      'aqm.tags': ['own', 'scope'],
    });
    expect(byName.outside).toEqual({});
  });

  it('adds nothing when the provider has an AqmSpanProcessor, which copies the values itself', () => {
    const { exporter, list } = registered(new AqmSpanProcessor({}, { env: {}, logger: new CaptureLogger() }));
    withAqmAttributes({ sessionId: 's-1' }, () => trace.getTracer('t').startSpan('inside').end());
    expect(list).toHaveLength(2);
    expect(exporter.getFinishedSpans()[0]?.attributes).toEqual({ 'aqm.session.id': 's-1' });
  });
});

describe('the record: aqm.* attributes of any span', () => {
  it('takes ids nearest the first model call, keeps its own metadata entries, and merges tags', () => {
    const built = buildTrace({
      name: 'job',
      attributes: {
        'aqm.user.id': 'root',
        'aqm.session.id': 'root-session',
        'aqm.metadata.service.name': 'not-this',
        'aqm.metadata.region': 'eu',
        'aqm.tags': ['job'],
      },
      children: [
        { name: 'cache', attributes: { 'aqm.user.id': 'sibling', 'aqm.tags': 'cache' } },
        chatSpan('Hi?', 'Hello.', {
          'aqm.user.id': 'call',
          'aqm.metadata.region': 'us',
          'aqm.metadata.list': [1, 2],
        }),
      ],
    });
    const record = map(built.spans);
    expect(record.userId).toBe('call');
    expect(record.sessionId).toBe('root-session');
    expect(record.metadata).toMatchObject({ region: 'us', list: '[1,2]', 'aqm.tags': '["job","cache"]' });
    expect(record.metadata?.['service.name']).not.toBe('not-this');
  });
});
