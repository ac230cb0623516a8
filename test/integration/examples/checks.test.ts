import { describe, expect, it } from 'vitest';
import { checkDemo } from '../../../scripts/demo/checks.mjs';
import { DEMO_CONVERSATIONS, DEMO_TURNS } from '../../../scripts/demo/conversations.mjs';

// Records shaped as the service returns them, reduced to the fields the checks read (hence the cast).
type DemoRecords = Parameters<typeof checkDemo>[0];
function trace(sessionId: string, n: number) {
  return { traceId: n.toString(16).padStart(32, '0'), sessionId };
}
function record(traceId: string, stage: 'input' | 'output', final: string, failed?: 'fail' | 'mask') {
  return {
    traceId,
    guardrail_stage: stage,
    passStatus: failed ? 'error' : 'success',
    final_content: final,
    allComponents: failed ? [{ passed: false, onFail: failed }] : [],
  };
}

function goodRecords() {
  const sessions = DEMO_CONVERSATIONS.flatMap((c) => c.messages.map(() => c.sessionId));
  const traces = sessions.map((session, i) => trace(session, i + 1));
  const id = (session: string) => traces.find((t) => t.sessionId === session)?.traceId ?? '';
  return {
    traces,
    guardrails: [
      record(id('carol'), 'input', 'My email is [EMAIL].', 'mask'),
      record(id('carol'), 'output', 'Write to [EMAIL].', 'mask'),
      record(id('mallory'), 'input', '', 'fail'),
      record(id('dave'), 'output', 'About [TOXIC_LANGUAGE].', 'mask'),
    ],
    widgets: [],
  };
}

describe('demo checks', () => {
  it('pass when every message has a trace and the guardrails recorded what they would do', () => {
    const results = checkDemo(goodRecords() as unknown as DemoRecords, DEMO_CONVERSATIONS);
    expect(results.map((r) => r.problem)).toEqual(results.map(() => undefined));
    expect(results[0]?.label).toBe(`one trace per message (${DEMO_TURNS})`);
  });

  it('name what is missing: a trace, the would-be block, the would-be masking', () => {
    const records = goodRecords();
    records.traces.shift(); // alice has two messages: her session still has a trace
    const mallory = records.guardrails.find((r) => r.final_content === '');
    if (mallory) mallory.allComponents = [{ passed: false, onFail: 'mask' }];
    const carol = records.guardrails.find((r) => r.guardrail_stage === 'output');
    if (carol) carol.final_content = 'Write to carol.smith@example.org.';
    const problems = checkDemo(records as unknown as DemoRecords, DEMO_CONVERSATIONS)
      .map((r) => r.problem)
      .filter(Boolean);
    expect(problems).toEqual([
      `the service recorded ${DEMO_TURNS - 1} traces`,
      'the guardrails would not mask the personal data in both the prompt and the response',
      'the input guardrail did not record the prompt injection as one to block',
    ]);
  });
});
