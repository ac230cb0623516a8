import { SpanKind } from '@opentelemetry/api';
import { describe, expect, it, vi } from 'vitest';
import { aqmDiag } from '../src/diag.js';
import { buildTraceRecord } from '../src/mapping/build-record.js';
import type { MaskFunction } from '../src/privacy/mask.js';
import { TextSanitizer, truncationMarker } from '../src/privacy/text-sanitizer.js';
import { replaceLoneSurrogates, toWellFormedText } from '../src/privacy/well-formed.js';
import { buildTrace, json } from './mapping-helpers/spans.js';

function retrievalTrace(prompt: string, answer: string) {
  return buildTrace(
    {
      name: 'RunnableSequence',
      attributes: {
        'openinference.span.kind': 'CHAIN',
        'input.value': prompt,
        'input.mime_type': 'text/plain',
        'output.value': answer,
        'output.mime_type': 'text/plain',
        'session.id': 'session-of-bob@example.com',
        'user.id': 'bob@example.com',
        'tag.tags': ['bob@example.com', 'other'],
      },
      children: [
        {
          name: 'retriever',
          attributes: {
            'openinference.span.kind': 'RETRIEVER',
            'retrieval.documents.0.document.content': 'Bob (bob@example.com) is a customer.',
          },
        },
        {
          name: 'chat',
          kind: SpanKind.CLIENT,
          attributes: {
            'gen_ai.operation.name': 'chat',
            'gen_ai.input.messages': json([{ role: 'user', parts: [{ type: 'text', content: prompt }] }]),
            'gen_ai.output.messages': json([
              { role: 'assistant', parts: [{ type: 'text', content: answer }] },
            ]),
          },
          events: [{ name: 'note', attributes: { detail: 'mailed bob@example.com' } }],
        },
      ],
    },
    { resource: { 'service.name': 'svc' } },
  );
}

/** Every string of a value, recursively. */
function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (typeof value === 'object' && value !== null) return Object.values(value).flatMap(strings);
  return [];
}

describe('TextSanitizer', () => {
  it('truncates past maxValueChars with a visible marker counting the removed characters', () => {
    const sanitizer = new TextSanitizer({ maxValueChars: 10 });
    expect(sanitizer.clean('0123456789', 'prompt')).toBe('0123456789');
    expect(sanitizer.clean('0123456789abc', 'prompt')).toBe(`0123456789${truncationMarker(3)}`);
    expect(truncationMarker(3)).toBe('…[truncated 3 chars]');
    const huge = 'x'.repeat(100_000);
    expect(sanitizer.clean(huge, 'prompt')).toBe(`xxxxxxxxxx…[truncated ${100_000 - 10} chars]`);
  });

  it('never cuts a surrogate pair in half', () => {
    const sanitizer = new TextSanitizer({ maxValueChars: 3 });
    const out = sanitizer.clean('ab😀cd', 'prompt');
    expect(out).toBe('ab…[truncated 4 chars]');
    expect(out.isWellFormed()).toBe(true);
  });

  it('repairs lone surrogates and NUL characters, natively and with the fallback', () => {
    const broken = `a\uD800b\uDC00c\u0000d😀`;
    expect(toWellFormedText(broken)).toBe('a\uFFFDb\uFFFDc\uFFFDd😀');
    expect(replaceLoneSurrogates(broken)).toBe('a\uFFFDb\uFFFDc\u0000d😀');
    expect(new TextSanitizer({ maxValueChars: 100 }).clean(broken, 'prompt').isWellFormed()).toBe(true);
  });

  it('masks the whole value before truncating, so PII at the limit is still recognised', () => {
    const mask: MaskFunction = (value) => value.replaceAll('secret-token', '[X]');
    const sanitizer = new TextSanitizer({ maxValueChars: 12, mask });
    expect(sanitizer.clean('0123456789secret-token', 'prompt')).toBe(
      '0123456789[X]'.slice(0, 12) + truncationMarker(1),
    );
  });

  it('blanks the value when the mask throws or returns a non-string, and counts it', () => {
    const throwing = new TextSanitizer({
      maxValueChars: 100,
      mask: () => {
        throw new Error('mask bug');
      },
    });
    expect(throwing.clean('private', 'prompt')).toBe('');
    const wrongType = new TextSanitizer({ maxValueChars: 100, mask: (() => 42) as unknown as MaskFunction });
    expect(wrongType.clean('private', 'prompt')).toBe('');
    expect(throwing.maskFailures).toBe(1);
  });

  it('reports a failing mask through diag without the value, at most once a minute', () => {
    const warn = vi.spyOn(aqmDiag, 'warn').mockImplementation(() => {});
    vi.useFakeTimers({ now: Date.UTC(2030, 0, 1) });
    try {
      const sanitizer = new TextSanitizer({
        maxValueChars: 100,
        mask: () => {
          throw new TypeError('bad');
        },
      });
      sanitizer.clean('top secret', 'prompt');
      sanitizer.clean('top secret', 'response');
      expect(warn).toHaveBeenCalledTimes(1);
      expect(warn.mock.calls[0]?.[0]).toBe(
        'The mask function threw (TypeError) for field "prompt"; the value was blanked before sending.',
      );
      vi.advanceTimersByTime(60_000);
      sanitizer.clean('top secret', 'response');
      expect(warn).toHaveBeenCalledTimes(2);
      expect(JSON.stringify(warn.mock.calls)).not.toContain('top secret');
    } finally {
      vi.useRealTimers();
      warn.mockRestore();
    }
  });
});

describe('buildTraceRecord: privacy and text repair', () => {
  it('applies the mask to prompt, response, context, ids, metadata and every string attribute', () => {
    const fields = new Set<string>();
    const mask: MaskFunction = (value, { field }) => {
      fields.add(field.split('.')[0]!);
      return value.replaceAll('bob@example.com', '[EMAIL]');
    };
    const built = retrievalTrace('Email bob@example.com please', 'Sent to bob@example.com');
    const record = buildTraceRecord(built.spans, [], { maxValueChars: 1000, mask })!;
    expect(record.prompt).toBe('Email [EMAIL] please');
    expect(record.response).toBe('Sent to [EMAIL]');
    expect(record.context).toEqual(['Bob ([EMAIL]) is a customer.']);
    expect(record.userId).toBe('[EMAIL]');
    expect(strings(record).filter((text) => text.includes('bob@example.com'))).toEqual([]);
    expect([...fields].sort()).toEqual([
      'context',
      'metadata',
      'prompt',
      'response',
      'sessionId',
      'span',
      'userId',
    ]);
  });

  it('blanks every string when the mask throws, and still returns the record', () => {
    const built = retrievalTrace('Email bob@example.com please', 'Sent');
    const record = buildTraceRecord(built.spans, [], {
      maxValueChars: 1000,
      mask: () => {
        throw new Error('boom');
      },
    })!;
    expect(record).toMatchObject({ prompt: '', response: '', context: [''], userId: '' });
    expect(strings(record.spans).filter((text) => text.includes('bob'))).toEqual([]);
  });

  it('truncates prompt, response and attributes and repairs lone surrogates, never dropping the record', () => {
    const long = `${'p'.repeat(150)}\uD800`;
    const built = retrievalTrace(long, `answer\uDC00${'r'.repeat(200)}`);
    const record = buildTraceRecord(built.spans, [], { maxValueChars: 100 })!;
    expect(record.prompt).toBe(`${'p'.repeat(100)}…[truncated 51 chars]`);
    expect(record.response.startsWith('answer\uFFFD')).toBe(true);
    expect(record.response.endsWith('…[truncated 107 chars]')).toBe(true);
    const inputValue = record.spans?.[0]?.attributes['input.value'];
    expect(inputValue).toBe(record.prompt);
    for (const text of strings(record)) expect(text.isWellFormed()).toBe(true);
  });
});
