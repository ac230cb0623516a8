import type { SpanSpec } from './span-tree.js';

/** What the stored trace must hold for a convention case. */
export interface ExpectedTrace {
  prompt: string;
  response: string;
  model: string;
  provider?: string;
  /** `undefined` when the library recorded no token counts. */
  usage: { inputTokens: number; outputTokens: number; totalTokens: number } | undefined;
  status: 'success' | 'error';
  errorMessage?: string;
}

/** One row of the convention table: spans as the library emits them, and what must be stored. */
export interface ConventionCase {
  name: string;
  spans: SpanSpec;
  expected: ExpectedTrace;
}

/** JSON text, as instrumentations store structured values on span attributes. */
export const json = (value: unknown): string => JSON.stringify(value);

/** Usage with the total the service should show: input + output unless the library gave its own. */
export function usage(inputTokens: number, outputTokens: number): ExpectedTrace['usage'] {
  return { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens };
}

/** A GenAI semconv message: a role and its parts (`finish_reason` on output messages). */
export type SemconvMessage = {
  role: string;
  parts: Array<{ type: 'text'; content: string }>;
  finish_reason?: string;
};

/** GenAI semconv message JSON (`gen_ai.input.messages` / `gen_ai.output.messages`): one text part each. */
export function semconvMessages(
  ...messages: Array<{ role: string; text: string; finish_reason?: string }>
): SemconvMessage[] {
  return messages.map(({ role, text, finish_reason }) => ({
    role,
    parts: [{ type: 'text', content: text }],
    ...(finish_reason === undefined ? {} : { finish_reason }),
  }));
}
