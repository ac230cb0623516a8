import type { Finding } from '../findings.js';
import { plural, sentenceSpans, stem, words } from '../text.js';
import { stringListValue } from './config.js';
import type { GuardrailValidator } from './types.js';

const TYPE = 'banned-topics';

/** Whether `haystack` holds `needle` as a contiguous run. */
function containsRun(haystack: readonly string[], needle: readonly string[]): boolean {
  if (needle.length === 0) return false;
  for (let i = 0; i + needle.length <= haystack.length; i += 1) {
    if (needle.every((word, j) => haystack[i + j] === word)) return true;
  }
  return false;
}

/**
 * `banned-topics`: each sentence that mentions a configured topic is a finding. A topic
 * matches as whole words, in order, ignoring case and plural `s` (`election` matches
 * "Elections"). No topics configured: nothing is banned.
 */
export const bannedTopicsValidator: GuardrailValidator = {
  type: TYPE,
  detect(text, config) {
    const topics = stringListValue(TYPE, config, 'topics')
      .map((topic) => ({ topic, terms: words(topic).map(stem) }))
      .filter(({ terms }) => terms.length > 0);
    const findings: Finding[] = [];
    const mentioned = new Set<string>();
    for (const span of sentenceSpans(text)) {
      const sentence = words(text.slice(span.start, span.end)).map(stem);
      const hits = topics.filter(({ terms }) => containsRun(sentence, terms));
      if (hits.length === 0) continue;
      for (const { topic } of hits) mentioned.add(topic);
      findings.push({ ...span, entity: 'BANNED_TOPIC', weight: 1 });
    }
    const failed = findings.length > 0;
    const summary = failed
      ? `${plural(findings.length, 'sentence')} ${findings.length === 1 ? 'mentions' : 'mention'} banned topics (${[...mentioned].join(', ')})`
      : 'no banned topic mentioned';
    return { findings, score: failed ? 1 : 0, failed, summary };
  },
};
