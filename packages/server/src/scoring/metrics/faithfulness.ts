import { contentTerms, figure, sentenceSpans, termSet } from '../text.js';
import type { MetricEvaluator } from '../types.js';
import { booleanOption, scored } from './options.js';

const NAME = 'faithfulness';

/** A sentence is supported when at least this share of its content terms occur in the context. */
export const SUPPORT_SHARE = 0.5;

/**
 * Faithfulness: the share of the response's sentences (those with content terms) that the
 * context supports. Without context the response cannot contradict anything and scores 1,
 * or 0 when the metric sets `requireContext: true`. A response without statements scores 1.
 */
export const faithfulness: MetricEvaluator = {
  metric: NAME,
  evaluate(trace, metric) {
    const contextTerms = termSet((trace.context ?? []).join('\n'));
    if (contextTerms.size === 0) {
      return booleanOption(metric, NAME, 'requireContext')
        ? scored(
            metric,
            NAME,
            0,
            'The trace has no context and requireContext is set, so nothing supports it.',
          )
        : scored(
            metric,
            NAME,
            1,
            'The trace has no context to check the response against, so it is not penalised.',
          );
    }
    const sentences = sentenceSpans(trace.response)
      .map((span) => contentTerms(trace.response.slice(span.start, span.end)))
      .filter((terms) => terms.length > 0);
    if (sentences.length === 0) {
      return scored(metric, NAME, 1, 'The response makes no statement to check against the context.');
    }
    const supported = sentences.filter((terms) => {
      const found = terms.filter((term) => contextTerms.has(term)).length;
      return found / terms.length >= SUPPORT_SHARE;
    }).length;
    const score = supported / sentences.length;
    return scored(
      metric,
      NAME,
      score,
      `${supported} of ${sentences.length} response sentences are supported by the context (${figure(score * 100)}%).`,
    );
  },
};
