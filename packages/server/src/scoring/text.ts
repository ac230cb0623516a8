/** A located piece of a text: `text.slice(start, end)`. */
export interface TextSpan {
  start: number;
  end: number;
}

/** English stopwords: function words that carry no topic, removed before term overlap. */
export const STOPWORDS: ReadonlySet<string> = new Set(
  (
    "a about above after again against all am an and any are aren't as at be because been before being below " +
    "between both but by can can't cannot could couldn't did didn't do does doesn't doing don't down during each " +
    "few for from further had hadn't has hasn't have haven't having he he'd he'll he's her here here's hers " +
    "herself him himself his how how's i i'd i'll i'm i've if in into is isn't it it's its itself let's me more " +
    "most mustn't my myself no nor not of off on once only or other ought our ours ourselves out over own please " +
    "same shan't she she'd she'll she's should shouldn't so some such than that that's the their theirs them " +
    "themselves then there there's these they they'd they'll they're they've this those through to too under " +
    "until up very was wasn't we we'd we'll we're we've were weren't what what's when when's where where's which " +
    "while who who's whom why why's will with won't would wouldn't you you'd you'll you're you've your yours " +
    'yourself yourselves also just tell give get let us'
  ).split(' '),
);

// Scripts written without spaces: each character is a word of its own.
const UNSPACED = '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}';
const WORD_CHAR = `(?:(?![${UNSPACED}])[\\p{L}\\p{N}\\p{M}])`;
const WORD = new RegExp(`[${UNSPACED}]|${WORD_CHAR}+(?:'${WORD_CHAR}+)*`, 'gu');

/** NFKC form, lower case, typographic apostrophes made plain: what the word rules see. */
export function normalizeText(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\u2018\u2019\u02bc]/g, "'");
}

/** The words of a text, normalised (see {@link normalizeText}); CJK characters are words of their own. */
export function words(text: string): string[] {
  return normalizeText(text).match(WORD) ?? [];
}

/**
 * A light English stem so that singular and plural meet: `policies` → `policy`,
 * `refunds` → `refund`; `class`, `status`, `analysis` and short words are left alone.
 */
export function stem(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 3 && word.endsWith('s') && !/(?:ss|us|is)$/.test(word)) return word.slice(0, -1);
  return word;
}

/** The stemmed words of a text without stopwords, in order (with repeats). */
export function contentTerms(text: string): string[] {
  return words(text)
    .filter((word) => !STOPWORDS.has(word))
    .map(stem);
}

/** The distinct content terms of a text. */
export function termSet(text: string): Set<string> {
  return new Set(contentTerms(text));
}

// A sentence ends at terminal punctuation (and any closing quotes or brackets) followed by
// white space or the end, or at a line break. "3.5" and "e.g.x" do not end a sentence. The
// lookbehind starts a match only at the start of a run of terminal punctuation: a start inside
// the run reaches the same end, so it cannot match where the run's start did not, and retrying
// it rescanned the run from every position (quadratic: 64 KiB of dots took 10 s).
export const SENTENCE_END =
  /(?<![.!?\u2026\u3002\uff01\uff1f])[.!?\u2026\u3002\uff01\uff1f]+["'\u201d\u2019)\]]*(?=\s|$)|[\u3002\uff01\uff1f]|\n/gu;

/** The sentences of a text as spans, trimmed of surrounding white space; empty ones are left out. */
export function sentenceSpans(text: string): TextSpan[] {
  const spans: TextSpan[] = [];
  let from = 0;
  const push = (start: number, end: number) => {
    let s = start;
    let e = end;
    while (s < e && /\s/.test(text[s]!)) s += 1;
    while (e > s && /\s/.test(text[e - 1]!)) e -= 1;
    if (e > s) spans.push({ start: s, end: e });
  };
  for (const match of text.matchAll(SENTENCE_END)) {
    const end = match.index + match[0].length;
    push(from, end);
    from = end;
  }
  push(from, text.length);
  return spans;
}

/** Rounds a score to 4 decimals, so stored and displayed figures agree. */
export function roundScore(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}

/** A number for an explanation sentence: at most 2 decimals, no trailing zeros. */
export function figure(value: number): string {
  return String(Math.round(value * 100) / 100);
}

/** `1 word`, `2 words`. */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : pluralForm}`;
}
