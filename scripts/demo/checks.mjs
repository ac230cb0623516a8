// What the demo must show, checked on what the service recorded: a demo that silently stopped
// demonstrating (no traces, an injection the guardrails would not block, PII they would not mask)
// fails instead. Guardrails are recorded after the fact: "would block" is the claim checked.
import { guardrailAction } from './report.mjs';

const PII_PLACEHOLDERS = /\[EMAIL\]|\[PHONE\]/;

function recordOf(records, trace, stage) {
  return records.guardrails.find((r) => r.traceId === trace.traceId && r.guardrail_stage === stage);
}

/** One expectation of a conversation: `undefined` when met, else what went wrong. */
const EXPECTATIONS = {
  'input-would-block': (records, trace) => {
    const input = recordOf(records, trace, 'input');
    return input !== undefined && guardrailAction(input) === 'would block' && input.final_content === ''
      ? undefined
      : 'the input guardrail did not record the prompt injection as one to block';
  },
  'pii-would-mask': (records, trace) => {
    const input = recordOf(records, trace, 'input')?.final_content ?? '';
    const output = recordOf(records, trace, 'output')?.final_content ?? '';
    return PII_PLACEHOLDERS.test(input) && PII_PLACEHOLDERS.test(output) && !/@example\./.test(input + output)
      ? undefined
      : 'the guardrails would not mask the personal data in both the prompt and the response';
  },
  'output-fails': (records, trace) =>
    recordOf(records, trace, 'output')?.passStatus === 'error'
      ? undefined
      : 'the rude conversation did not trip an output guardrail',
};

/** How the checks read: what the guardrails would do, as recorded after the model call. */
const EXPECTATION_LABELS = {
  'input-would-block': 'the input guardrail would block it',
  'pii-would-mask': 'the guardrails would mask it both ways',
  'output-fails': 'the output guardrail fails',
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
    const label = `${conversation.sessionId}: ${conversation.about} → ${EXPECTATION_LABELS[conversation.expect]}`;
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
