import { randomBytes } from 'node:crypto';
import type { EvaluationTrace } from '@aqm/wire';

/** A random W3C trace id. */
export function traceId(): string {
  return randomBytes(16).toString('hex');
}

/** A valid wire record; `prompt` and extra fields can be set. */
export function makeRecord(overrides: Partial<EvaluationTrace> = {}): EvaluationTrace {
  return {
    traceId: traceId(),
    prompt: 'What is the refund policy?',
    response: 'Refunds are possible within 30 days.',
    startTime: '2026-01-01T00:00:00.000Z',
    endTime: '2026-01-01T00:00:01.000Z',
    status: 'success',
    ...overrides,
  };
}

/** A wire span, for records that carry spans. */
export function makeSpan(index: number, attributeChars = 100): NonNullable<EvaluationTrace['spans']>[number] {
  return {
    spanId: (index + 1).toString(16).padStart(16, '0'),
    name: `step ${index}`,
    kind: 'internal',
    startTime: '2026-01-01T00:00:00.000Z',
    endTime: '2026-01-01T00:00:01.000Z',
    status: { code: 'ok' },
    attributes: { payload: 'x'.repeat(attributeChars) },
  };
}

/** UTF-8 bytes of a record's JSON, as the sender counts them. */
export function recordBytes(record: EvaluationTrace): number {
  return Buffer.byteLength(JSON.stringify(record), 'utf8');
}
