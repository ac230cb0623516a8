// What the demo must show, checked on what the service recorded: a demo that silently stopped
// demonstrating (no traces, an injection not blocked, PII not masked) fails instead.
import { guardrailAction } from './report.mjs';

const PII_PLACEHOLDERS = /\[EMAIL\]|\[PHONE\]/;

function recordOf(records, trace, stage) {
  return records.guardrails.find((r) => r.traceId === trace.traceId && r.guardrail_stage === stage);
}

/** One expectation of a conversation: `undefined` when met, else what went wrong. */
const EXPECTATIONS = {
  'input-blocked': (records, trace) => {
    const input = recordOf(records, trace, 'input');
    return input !== undefined && guardrailAction(input) === 'blocked' && input.final_content === ''
      ? undefined
      : 'the prompt injection was not blocked at the input stage';
  },
  'pii-masked': (records, trace) => {
    const input = recordOf(records, trace, 'input')?.final_content ?? '';
    const output = recordOf(records, trace, 'output')?.final_content ?? '';
    return PII_PLACEHOLDERS.test(input) && PII_PLACEHOLDERS.test(output) && !/@example\./.test(input + output)
      ? undefined
      : 'the personal data was not masked in both the prompt and the response';
  },
  'output-masked': (records, trace) =>
    recordOf(records, trace, 'output')?.passStatus === 'error'
      ? undefined
      : 'the rude conversation did not trip an output guardrail',
};

/**
 * Checks the recorded data against the conversations: one trace per message, and each
 * conversation's `expect`.
 *
 * @param {import('./collect.mjs').DemoRecords} records
 * @param {import('./conversations.mjs').Conversation[]} conversations
 * @returns {Array<{ label: string, problem?: string }>}
 * @example
 * const failed = checkDemo(records, DEMO_CONVERSATIONS).filter((c) => c.problem);
 */
export function checkDemo(records, conversations) {
  const turns = conversations.reduce((sum, c) => sum + c.messages.length, 0);
  const results = [
    {
      label: `one trace per message (${turns})`,
      problem:
        records.traces.length === turns ? undefined : `the service recorded ${records.traces.length} traces`,
    },
  ];
  for (const conversation of conversations) {
    if (conversation.expect === undefined) continue;
    const label = `${conversation.sessionId}: ${conversation.about} → ${conversation.expect}`;
    const trace = records.traces.find((t) => t.sessionId === conversation.sessionId);
    results.push({
      label,
      problem:
        trace === undefined
          ? `no trace of session ${conversation.sessionId}`
          : EXPECTATIONS[conversation.expect](records, trace),
    });
  }
  return results;
}
