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
