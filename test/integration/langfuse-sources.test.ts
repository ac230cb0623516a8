import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanEnv, ROOT, runNode } from './examples/run-node.js';

// Langfuse v5 from npm (test/fixtures/langfuse): observations made by hand with @langfuse/tracing,
// observeOpenAI from @langfuse/openai, and @langfuse/langchain's CallbackHandler, driving the real
// `openai` and LangChain packages against the fake model. Langfuse makes plain OTel spans through
// the global tracer provider; AqmSpanProcessor sends them to the local service, and each trace is
// read back. Each source runs in its own process. Uses the built @aqm/otel.

const FIXTURE = join(ROOT, 'test', 'fixtures', 'langfuse');
const RUN_TIMEOUT_MS = 40_000;

interface Result {
  name: string;
  question: string;
  answer: string;
  failed: boolean;
  model?: string;
  userId?: string;
  sessionId?: string;
  stored: {
    prompt: string;
    response: string;
    status: string;
    model?: string;
    errorMessage?: string;
    userId?: string;
    sessionId?: string;
  } | null;
}

const FIVE = ['plain', 'stream', 'tool round trip', 'tool round trip in a wrapper', 'failed call'];

/** Each source's scenarios: the five of every recorded source, and the extra ones it has. */
const SOURCES: Record<string, string[]> = {
  'langfuse-tracing': [
    ...FIVE,
    'agent with retriever, guardrail, evaluator and event',
    'observed chain with an embedding',
    'failed call in an observed chain',
  ],
  'langfuse-openai': [...FIVE, 'responses api'],
  'langfuse-langchain': FIVE,
};

describe.each(Object.entries(SOURCES))(
  '%s against the fake model, into the local service',
  (source, names) => {
    it(
      'stores the question, the final text answer, the status and the model of each scenario, once each',
      async () => {
        const run = await runNode('run.mjs', {
          cwd: FIXTURE,
          env: cleanEnv({ LANGFUSE_SOURCE: source }),
          timeoutMs: RUN_TIMEOUT_MS,
        });
        expect(run.stderr).toBe('');
        expect(run.code).toBe(0);
        const report = JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '{}') as {
          traces: number;
          results: Result[];
        };
        expect(report.results.map((result) => result.name)).toEqual(names);
        // One record per scenario: no stray trace from a piece of one.
        expect(report.traces).toBe(names.length);
        // Soft: a failing run lists every scenario that went wrong, not only the first.
        for (const result of report.results) {
          const label = `${source} / ${result.name}`;
          const failing = result.name.startsWith('failed call');
          expect.soft(result.failed, `${label}: the app saw the call fail`).toBe(failing);
          expect.soft(result.stored, `${label}: stored`).not.toBeNull();
          expect.soft(result.stored?.prompt, `${label}: prompt`).toBe(result.question);
          expect.soft(result.stored?.status, `${label}: status`).toBe(failing ? 'error' : 'success');
          if (failing) {
            expect.soft(result.stored?.errorMessage, `${label}: why`).toContain('500');
            // No answer: the failure recorded as an observation's output is no response to score.
            expect.soft(result.stored?.response, `${label}: response`).toBe('');
          } else {
            expect.soft(result.answer, `${label}: the fake model answered`).not.toBe('');
            // The final text answer, never the tool call that came before it.
            expect.soft(result.stored?.response, `${label}: response`).toBe(result.answer);
          }
          expect.soft(result.stored?.model, `${label}: model`).toBe('gpt-4o-mini');
          if (result.userId !== undefined) {
            expect.soft(result.stored?.userId, `${label}: user`).toBe(result.userId);
            expect.soft(result.stored?.sessionId, `${label}: session`).toBe(result.sessionId);
          }
        }
      },
      RUN_TIMEOUT_MS + 10_000,
    );
  },
);
