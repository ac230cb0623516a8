import type { Finding } from '../findings.js';
import { plural, sentenceSpans, stem, words } from '../text.js';
import { stringListValue } from './config.js';
import type { GuardrailValidator } from './types.js';

const TYPE = 'banned-topics';

/** A trie of topics by their stemmed words: a node's `topics` end there. */
interface TopicNode {
  next: Map<string, TopicNode>;
  topics: string[];
}

function topicTrie(topics: readonly string[]): TopicNode {
  const root: TopicNode = { next: new Map(), topics: [] };
  for (const topic of topics) {
    const terms = words(topic).map(stem);
    if (terms.length === 0) continue;
    let node = root;
    for (const term of terms) {
      let child = node.next.get(term);
      if (child === undefined) {
        child = { next: new Map(), topics: [] };
        node.next.set(term, child);
      }
      node = child;
    }
    node.topics.push(topic);
  }
  return root;
}

/**
 * The topics mentioned in a sentence's words, as contiguous runs. Walking the trie from each
 * word costs at most the longest topic's length per word, however many topics there are
 * (checking every topic at every word cost words x topics: 20,000 topics on 100 KiB took 5.7 s).
 */
function mentionedTopics(sentence: readonly string[], trie: TopicNode): Set<string> {
  const found = new Set<string>();
  for (let i = 0; i < sentence.length; i += 1) {
    let node: TopicNode | undefined = trie;
    for (let j = i; j < sentence.length; j += 1) {
      node = node.next.get(sentence[j] as string);
      if (node === undefined) break;
      for (const topic of node.topics) found.add(topic);
    }
  }
  return found;
}

/**
 * `banned-topics`: each sentence that mentions a configured topic is a finding. A topic
 * matches as whole words, in order, ignoring case and plural `s` (`election` matches
 * "Elections"). No topics configured: nothing is banned.
 */
export const bannedTopicsValidator: GuardrailValidator = {
  type: TYPE,
  detect(text, config) {
    const topics = stringListValue(TYPE, config, 'topics');
    const trie = topicTrie(topics);
    const findings: Finding[] = [];
    const mentioned = new Set<string>();
    if (trie.next.size === 0) {
      return { findings, score: 0, failed: false, summary: 'no banned topic mentioned' };
    }
    for (const span of sentenceSpans(text)) {
      const hits = mentionedTopics(words(text.slice(span.start, span.end)).map(stem), trie);
      if (hits.size === 0) continue;
      for (const topic of hits) mentioned.add(topic);
      findings.push({ ...span, entity: 'BANNED_TOPIC', weight: 1 });
    }
    const failed = findings.length > 0;
    const summary = failed
      ? `${plural(findings.length, 'sentence')} ${findings.length === 1 ? 'mentions' : 'mention'} banned topics (${[...new Set(topics.filter((topic) => mentioned.has(topic)))].join(', ')})`
      : 'no banned topic mentioned';
    return { findings, score: failed ? 1 : 0, failed, summary };
  },
};
