import type { DiagLogger } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { debugSource } from '../src/debug/debug-env.js';
import { attributeKeysSeen, configLine, MAX_KEYS_SHOWN } from '../src/debug/debug-format.js';
import { debugSink } from '../src/debug/debug-switch.js';
import { PipelineDebug } from '../src/debug/pipeline-debug.js';
import { describeApiKey, describeUrl } from '../src/debug/redact.js';
import { resolveOptions } from '../src/options.js';
import type { ReadableSpan } from '../src/sdk-types.js';

const KEY = 'aqm_live_0123456789abcdefSECRET';

function spanWith(attributes: Record<string, unknown>): ReadableSpan {
  return { attributes } as unknown as ReadableSpan;
}

function collecting(): { lines: string[]; debug: PipelineDebug } {
  const lines: string[] = [];
  return { lines, debug: new PipelineDebug((line) => lines.push(line)) };
}

describe('the debug switch', () => {
  it('AQM_DEBUG (1, true, yes, on) or OTEL_LOG_LEVEL at debug or more turns it on; nothing else does', () => {
    for (const value of ['1', 'true', 'YES', ' on '])
      expect(debugSource({ AQM_DEBUG: value })).toBe('AQM_DEBUG');
    for (const value of ['debug', 'VERBOSE', 'all'])
      expect(debugSource({ OTEL_LOG_LEVEL: value })).toBe('OTEL_LOG_LEVEL');
    for (const env of [
      {},
      { AQM_DEBUG: '0' },
      { AQM_DEBUG: 'false' },
      { OTEL_LOG_LEVEL: 'info' },
      { AQM_DEBUG: '' },
    ])
      expect(debugSource(env)).toBeUndefined();
    expect(debugSource({ AQM_DEBUG: '1', OTEL_LOG_LEVEL: 'debug' })).toBe('AQM_DEBUG');
  });

  it('off: no sink at all, so no line is ever built', () => {
    expect(debugSink({})).toBeUndefined();
  });

  it("a caller's own logger gets the lines at debug (the forwarder's)", () => {
    const seen: string[] = [];
    const logger = { debug: (line: string) => seen.push(line) } as unknown as DiagLogger;
    debugSink({ OTEL_LOG_LEVEL: 'debug' }, logger)?.('hello');
    expect(seen).toEqual(['hello']);
  });
});

describe('redaction', () => {
  it('says whether the key is set, and shows none of its characters', () => {
    expect(describeApiKey(KEY)).toBe('set (redacted)');
    expect(describeApiKey(undefined)).toBe('not set');
    expect(describeApiKey('')).toBe('not set');
  });

  it('hides credentials and query strings in the base URL', () => {
    expect(describeUrl('https://user:pw@aqm.example/api?token=abc')).toBe(
      'https://(redacted)@aqm.example/api?(redacted)',
    );
    expect(describeUrl('http://127.0.0.1:4000/api')).toBe('http://127.0.0.1:4000/api');
    expect(describeUrl('not a url')).toBe('(not a URL)');
  });

  it("the config line holds no piece of the key, whatever the key's text", () => {
    for (const key of [KEY, 'k', 'set (redacted)x', 'a'.repeat(500)]) {
      const options = resolveOptions(
        {
          apiKey: key,
          baseUrl: 'http://127.0.0.1:4000/api',
          applicationId: '00000000-0000-4000-8000-000000000000',
        },
        {},
      );
      const { lines, debug } = collecting();
      debug.config(options, '00000000-0000-4000-8000-000000000000');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain('apiKey=set (redacted)');
      if (key.length > 2) expect(lines[0]).not.toContain(key);
    }
  });
});

describe('formatting', () => {
  it('the config line names endpoint, application, queue bounds, persistDir and sampling', () => {
    const options = resolveOptions(
      {
        apiKey: KEY,
        baseUrl: 'http://127.0.0.1:4000/api',
        applicationId: '00000000-0000-4000-8000-000000000000',
        maxQueueTraces: 7,
        sampleRate: 0.5,
      },
      {},
    );
    const line = configLine(options, '00000000-0000-4000-8000-000000000000');
    expect(line).toMatch(
      /^config: endpoint=http:\/\/127\.0\.0\.1:4000\/api application=00000000-0000-4000-8000-000000000000 apiKey=set \(redacted\) sampleRate=0\.5 persistDir=off maxQueueTraces=7 /,
    );
    expect(line).toContain('mask=off shouldExport=off');
  });

  it(`lists at most ${MAX_KEYS_SHOWN} distinct attribute keys, each cut, and how many more`, () => {
    const attributes: Record<string, unknown> = {};
    for (let i = 0; i < 30; i += 1) attributes[`key.${i}`] = i;
    const long = `long.${'x'.repeat(200)}`;
    const text = attributeKeysSeen([spanWith({ [long]: 1, 'key.0': 1 }), spanWith(attributes)]);
    expect(text.split(', ')).toHaveLength(MAX_KEYS_SHOWN);
    expect(text.startsWith(`long.${'x'.repeat(59)}…, key.0, key.1`)).toBe(true);
    expect(text).toMatch(/ \(\+11 more\)$/);
    expect(attributeKeysSeen([spanWith({})])).toBe('(none)');
  });

  it('control characters in keys, models and answers are shown, never written raw', () => {
    const { lines, debug } = collecting();
    debug.noLlmSpan('t1', [spanWith({ 'evil\u001b[2Jkey\nnext': 1 })]);
    debug.queued({
      traceId: 't2',
      prompt: 'q',
      response: 'a',
      startTime: '',
      endTime: '',
      status: 'success',
      model: 'm\u009b31m',
    });
    debug.sent(['t2']);
    debug.requestFailed(['t3'], { kind: 'failed', description: '409 Conflict: \u001b]0;owned\u0007' });
    expect(lines).toEqual([
      'trace t1 skipped: no LLM span among its 1 span(s); attribute keys seen: evil\\u001b[2Jkey\\u000anext',
      'trace t2 sent: prompt 1 chars, response 1 chars, model m\\u009b31m, status success, 0 span(s); accepted by the service (HTTP 2xx, request of 1 trace(s))',
      'request of 1 trace(s) (t3) not accepted: 409 Conflict: \\u001b]0;owned\\u0007; dropped',
    ]);
  });

  it('a drop says its reason, its count and the trace ids (at most five), and forgets their summaries', () => {
    const { lines, debug } = collecting();
    debug.dropped('queue-full', 7, 'Queue full', ['a', 'b', 'c', 'd', 'e', 'f', 'g']);
    debug.dropped('disk-full', 2, 'deleted from persistDir');
    expect(lines).toEqual([
      'dropped 7 trace(s) (a, b, c, d, e (+2 more)), reason queue-full: Queue full',
      'dropped 2 trace(s), reason disk-full: deleted from persistDir',
    ]);
  });
});
