import { aqmDiag } from './diag.js';

/** Attribute keys already reported; a handful at most (the conventions' message keys). */
const reported = new Set<string>();
const MAX_REPORTED = 32;

/**
 * Says once per attribute key and process, through `diag`, that a messages attribute the GenAI
 * semantic conventions define as JSON is not valid JSON (so it is sent as one plain-text message).
 *
 * @example
 * noteNotJson('gen_ai.input.messages');
 */
export function noteNotJson(key: string): void {
  if (reported.has(key) || reported.size >= MAX_REPORTED) return;
  reported.add(key);
  aqmDiag.warn(
    `${key} is not valid JSON, so it is sent as one plain-text message. The GenAI semantic conventions ` +
      'define it as a JSON array of messages. (Said once.)',
  );
}

/** Why a token count was left out of a record (each said once per process). */
export type CountProblem = 'too large' | 'negative' | 'not a whole number' | 'sum too large';

const countProblemsSaid = new Set<CountProblem>();

const COUNT_PROBLEM_TEXT: Record<CountProblem, string> = {
  'too large': 'is too large (beyond 2^53 - 1, where JavaScript numbers stop being exact)',
  negative: 'is negative',
  'not a whole number': 'is not a whole number',
  'sum too large': "makes the trace's sum too large (beyond 2^53 - 1)",
};

/**
 * Says once per reason and process, through `diag`, that a token count was left out of a record
 * (the rest of the record is sent: the service refuses a record whose counts are not
 * non-negative safe integers).
 *
 * @example
 * noteCountLeftOut('too large');
 */
export function noteCountLeftOut(problem: CountProblem): void {
  if (countProblemsSaid.has(problem)) return;
  countProblemsSaid.add(problem);
  aqmDiag.warn(
    `A token count that ${COUNT_PROBLEM_TEXT[problem]} was left out of the record; the rest of the ` +
      'record is sent. Token counts must be non-negative whole numbers up to 2^53 - 1. (Said once.)',
  );
}

/** Forgets which notices were given (for tests). @internal */
export function resetNoticesForTests(): void {
  reported.clear();
  countProblemsSaid.clear();
}
