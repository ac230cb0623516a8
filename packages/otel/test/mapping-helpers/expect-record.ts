import { type EvaluationTrace, evaluationTraceSchema } from '@aqm/wire';
import { expect } from 'vitest';
import { buildTraceRecord } from '../../src/mapping/build-record.js';
import type { BuiltTrace } from './spans.js';

/** The fields a convention case asserts. */
export interface ExpectedRecord {
  prompt: string;
  response: string;
  model?: string;
  provider?: string;
  usage?: EvaluationTrace['usage'];
  status?: 'success' | 'error';
  errorMessage?: string;
  context?: string[];
  sessionId?: string;
  userId?: string;
  convention?: string;
}

/** One row of a convention table: spans built as the instrumentation does, and the record expected. */
export interface ConventionCase {
  name: string;
  build: () => BuiltTrace;
  expected: ExpectedRecord;
}

/** Maps a built trace (spans in end order, as an exporter gets them) and checks the record against the wire schema. */
export function mapTrace(built: BuiltTrace, maxValueChars = 32_768): EvaluationTrace {
  const record = buildTraceRecord(built.spans, built.logs, { maxValueChars });
  expect(record).toBeDefined();
  const parsed = evaluationTraceSchema.safeParse(record);
  expect(parsed.success, parsed.success ? '' : JSON.stringify(parsed.error.issues)).toBe(true);
  return record!;
}

/** Asserts the convention-level fields of a record. */
export function expectRecord(record: EvaluationTrace, expected: ExpectedRecord, built: BuiltTrace): void {
  expect(record.traceId).toBe(built.traceId);
  expect(record.prompt).toBe(expected.prompt);
  expect(record.response).toBe(expected.response);
  expect(record.model).toBe(expected.model);
  expect(record.provider).toBe(expected.provider);
  expect(record.usage).toEqual(expected.usage);
  expect(record.status).toBe(expected.status ?? 'success');
  expect(record.errorMessage).toBe(expected.errorMessage);
  if (expected.context !== undefined) expect(record.context).toEqual(expected.context);
  if (expected.sessionId !== undefined) expect(record.sessionId).toBe(expected.sessionId);
  if (expected.userId !== undefined) expect(record.userId).toBe(expected.userId);
  if (expected.convention !== undefined)
    expect(record.metadata?.['aqm.convention']).toBe(expected.convention);
  expect(record.spans).toHaveLength(built.spans.length);
}
