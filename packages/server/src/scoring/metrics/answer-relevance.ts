import { figure, termSet } from '../text.js';
import type { MetricEvaluator } from '../types.js';
import { scored } from './options.js';

const NAME = 'answer_relevance';

/**
 * Answer relevance: the share of the prompt's distinct content terms (stopwords removed,
 * light stemming) that the response uses. An empty response scores 0; a prompt without
 * content terms cannot be matched, so any non-empty response scores 1.
 */
export const answerRelevance: MetricEvaluator = {
  metric: NAME,
  evaluate(trace, metric) {
    const responseTerms = termSet(trace.response);
    if (responseTerms.size === 0) {
      const why = trace.response.trim() === '' ? 'is empty' : 'has no content words';
      return scored(metric, NAME, 0, `The response ${why}, so it cannot answer the prompt.`);
    }
    const promptTerms = termSet(trace.prompt);
    if (promptTerms.size === 0) {
      return scored(
        metric,
        NAME,
        1,
        'The prompt has no content words to match, so the response counts as relevant.',
      );
    }
    const shared = [...promptTerms].filter((term) => responseTerms.has(term)).length;
    const score = shared / promptTerms.size;
    return scored(
      metric,
      NAME,
      score,
      `The response uses ${shared} of the ${promptTerms.size} content terms of the prompt (${figure(score * 100)}%).`,
    );
  },
};
