import { describe, expect, it } from 'vitest';
import { cleanEnv, ROOT, runNode } from './run-node.js';

const RUN_TIMEOUT_MS = 90_000;

/** The rows of the table under a `== title ==` heading (header and rule line left out). */
function tableRows(stdout: string, title: string): string[] {
  const start = stdout.split('\n').findIndex((line) => line.startsWith(`== ${title}`));
  expect(start, `section "${title}"`).toBeGreaterThanOrEqual(0);
  const rows: string[] = [];
  for (const line of stdout.split('\n').slice(start + 3)) {
    if (line.trim() === '') break;
    rows.push(line);
  }
  return rows;
}

/** The cells of a row: columns are separated by at least two spaces. */
const cells = (row: string) => row.trim().split(/ {2,}/);

describe('pnpm demo (scripts/demo/demo.mjs, on the built packages)', () => {
  it(
    'exits 0 and its tables show what the guardrails would do: block the injection, mask the personal data',
    async () => {
      const run = await runNode('scripts/demo/demo.mjs', {
        cwd: ROOT,
        env: cleanEnv({ COLUMNS: '160' }),
        timeoutMs: RUN_TIMEOUT_MS,
      });
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(run.stdout).not.toContain('\x1b['); // no colour when not a terminal
      for (const line of run.stdout.split('\n')) expect(line.length).toBeLessThanOrEqual(160);

      // Trace numbers of the sessions, from the traces table.
      const traces = tableRows(run.stdout, 'Traces recorded by the service').map(cells);
      expect(traces).toHaveLength(6);
      const numberOf = (session: string) => traces.find((row) => row[1] === session)?.[0];
      const injection = numberOf('mallory');
      const pii = numberOf('carol');
      expect(injection).toBeDefined();
      expect(pii).toBeDefined();

      const guardrails = tableRows(run.stdout, 'Guardrail outcomes').map(cells);
      const outcome = (trace: string | undefined, stage: string) =>
        guardrails.find((row) => row[0] === trace && row[1] === stage);
      expect(outcome(injection, 'input')).toEqual([
        injection,
        'input',
        'FAIL',
        'prompt-injection',
        'would block',
        '(would be blocked)',
      ]);
      // Recorded after the fact: the report says so, and that the assistant answered the injection.
      expect(run.stdout).toContain('Recorded after the fact');
      expect(run.stdout).toMatch(
        new RegExp(
          `^Trace ${injection} \\(mallory\\): its input would have been blocked, yet the assistant answered: \\S`,
          'm',
        ),
      );
      // Nothing claims that content was blocked or masked.
      expect(run.stdout).not.toMatch(/\b(was|were) (blocked|masked)\b|\(blocked\)| masked /);
      const piiInput = outcome(pii, 'input');
      expect(piiInput?.slice(2, 5)).toEqual(['FAIL', 'pii', 'would mask']);
      expect(piiInput?.[5]).toContain('[EMAIL]');
      expect(piiInput?.[5]).not.toContain('carol.smith@example.org');
      const piiOutput = outcome(pii, 'output');
      expect(piiOutput?.slice(2, 5)).toEqual(['FAIL', 'pii', 'would mask']);
      expect(piiOutput?.[5]).toContain('[EMAIL]');
      // ... while the trace itself keeps what was said.
      expect(traces.find((row) => row[0] === pii)?.[5]).toContain('carol.smith@example.org');

      // Scores: the injection fails prompt_injection, the PII answer fails pii_leakage.
      const scoreHeader = run.stdout.split('\n').find((line) => line.startsWith('#  prompt'));
      const metricNames = cells(scoreHeader ?? '').slice(2);
      expect(metricNames).toEqual([
        'answer_relevance',
        'pii_leakage',
        'prompt_injection',
        'toxicity',
        'latency',
      ]);
      const scores = tableRows(run.stdout, 'Metric scores per trace').map(cells);
      const score = (trace: string | undefined, metric: string) =>
        scores.find((row) => row[0] === trace)?.[2 + metricNames.indexOf(metric)];
      expect(score(injection, 'prompt_injection')).toMatch(/^0\.\d\d FAIL$/);
      expect(score(pii, 'pii_leakage')).toMatch(/^0\.\d\d FAIL$/);

      // Widgets: one row each, totals agreeing with the tables above.
      const widgets = tableRows(run.stdout, 'Widget data for the run').map(cells);
      expect(widgets.map((row) => row[0])).toEqual([
        'Trace volume',
        'Latency',
        'Metric scores',
        'Guardrail failures',
        'Token usage',
      ]);
      expect(widgets[0]?.[1]).toBe(`${traces.length} traces`);
      const failedRuns = guardrails.filter((row) => row[2] === 'FAIL').length;
      expect(widgets[3]?.[1]).toBe(`${failedRuns} failures`);
      const tokens = traces.reduce((sum, row) => sum + Number(row[4]), 0);
      expect(widgets[4]?.[1]).toBe(`${tokens} tokens`);

      expect(run.stdout).not.toContain('FAILED');
      expect(run.stdout.trimEnd().endsWith('Demo complete.')).toBe(true);
    },
    RUN_TIMEOUT_MS + 10_000,
  );

  it(
    'fits its tables into a narrower terminal by cutting long texts',
    async () => {
      const run = await runNode('scripts/demo/demo.mjs', {
        cwd: ROOT,
        env: cleanEnv({ COLUMNS: '100' }),
        timeoutMs: RUN_TIMEOUT_MS,
      });
      expect(run.code).toBe(0);
      const lines = run.stdout.split('\n');
      for (const line of lines) expect(line.length).toBeLessThanOrEqual(100);
      expect(lines.some((line) => line.length === 100 && line.endsWith('…'))).toBe(true);
    },
    RUN_TIMEOUT_MS + 10_000,
  );
});
