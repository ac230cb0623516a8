/** Words as the fake counts tokens: whitespace-separated runs. */
export function countWords(text: string): number {
  const trimmed = text.trim();
  return trimmed === '' ? 0 : trimmed.split(/\s+/).length;
}

/**
 * Splits text into streaming chunks of one word each, the whitespace before a word kept with the
 * previous chunk, so the chunks joined give back the text exactly.
 */
export function streamingChunks(text: string): string[] {
  if (text === '') return [];
  return text.split(/(?<=\s)(?=\S)/);
}

/** Keeps the first `maxWords` words of a text (and the whitespace between them). */
export function firstWords(text: string, maxWords: number): string {
  const chunks = streamingChunks(text.replace(/^\s+/, ''));
  return chunks.slice(0, maxWords).join('').trimEnd();
}

// Small on purpose: enough to pull the topic words out of a question for `About <terms>: ...`.
const STOPWORDS = new Set(
  (
    'a an the and or but if then else of to in on at by for with from into onto about as is are was were be been ' +
    'being am do does did done doing have has had having i me my mine we us our ours you your yours he him his ' +
    'she her hers it its they them their theirs this that these those there here what which who whom whose ' +
    'when where why how can could would should shall will may might must not no yes so than too very just ' +
    'please tell explain describe give show let lets some any all each every much many more most other such ' +
    "own same only also again ever out up down over under off per via i'm it's what's"
  ).split(' '),
);

/** The words of a text without punctuation around them, in order. */
export function plainWords(text: string): string[] {
  return text
    .split(/\s+/)
    .map((word) => word.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ''))
    .filter((word) => word !== '');
}

/** The distinct content words of a text (stopwords left out), in their first spelling and order. */
export function keyTerms(text: string): string[] {
  const seen = new Set<string>();
  const terms: string[] = [];
  for (const word of plainWords(text)) {
    const lower = word.toLowerCase();
    if (STOPWORDS.has(lower) || seen.has(lower)) continue;
    seen.add(lower);
    terms.push(word);
  }
  return terms;
}

/** `a`, `a and b`, `a, b and c`. */
export function joinList(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}
