import { ibanValid, luhnValid, PII_DETECTORS, PII_ENTITY_OF_KIND } from '@aqm/wire';
import type { PiiEntity, SecretEntity } from '../catalog/validators.js';
import type { TextSpan } from './text.js';

/**
 * A detector of one entity: a global regular expression and, when the shape alone is too
 * loose, a check of the matched text (a checksum, a digit count). Every pattern runs on text
 * from end users, so each must take time linear in the text: no lookbehind that can scan back
 * over an unbounded run, no unbounded lazy scan restarted at each candidate (see
 * docs/reliability.md and the adversarial suite).
 */
export interface EntityPattern<E extends string = string> {
  entity: E;
  /**
   * Always global; only ever used through `matchAll`, so its `lastIndex` is never shared state.
   * Absent when `scan` finds the spans.
   */
  regex?: RegExp;
  /** The capture group that is the finding (the regex then has the `d` flag); default the whole match. */
  group?: number;
  /** Finds the spans itself instead of `regex` (for what one regex cannot do in linear time). */
  scan?: (text: string) => Iterable<TextSpan>;
  valid?: (match: string) => boolean;
}

const PRIVATE_KEY_BEGIN = '-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----';
const PRIVATE_KEY_END = '-----END (?:[A-Z0-9]+ )*PRIVATE KEY-----';

/**
 * Private key blocks: each BEGIN line up to the next END line. One regex with a lazy body
 * rescans to the end of the text for each BEGIN when no END follows (quadratic); here a BEGIN
 * without an END after it ends the search, since no later BEGIN can have one either.
 */
function* privateKeyBlocks(text: string): Iterable<TextSpan> {
  const begin = new RegExp(PRIVATE_KEY_BEGIN, 'g');
  const end = new RegExp(PRIVATE_KEY_END, 'g');
  for (;;) {
    const opening = begin.exec(text);
    if (opening === null) return;
    end.lastIndex = begin.lastIndex;
    const closing = end.exec(text);
    if (closing === null) return;
    yield { start: opening.index, end: end.lastIndex };
    begin.lastIndex = end.lastIndex;
  }
}

/** The spans a pattern finds in `text`, in order, before its `valid` check. */
export function* patternSpans(pattern: EntityPattern, text: string): Iterable<TextSpan> {
  if (pattern.scan) {
    yield* pattern.scan(text);
    return;
  }
  if (!pattern.regex) throw new Error(`pattern ${pattern.entity} has neither regex nor scan`);
  for (const match of text.matchAll(pattern.regex)) {
    const indices = pattern.group === undefined ? undefined : match.indices?.[pattern.group];
    if (indices) yield { start: indices[0], end: indices[1] };
    else if (pattern.group === undefined) yield { start: match.index, end: match.index + match[0].length };
  }
}

/** The checksums of the shared definition (@aqm/wire), here for the tests and the catalog's words. */
export { ibanValid, luhnValid };

const OCTET = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';

/**
 * PII detectors, most specific first: when two findings overlap and are as long as each
 * other, the earlier entity of this list names the merged finding. E-mails, cards, IBANs and
 * phones are the shared definition of @aqm/wire (the exporter's `maskPII` masks the same);
 * SSNs and IPv4 addresses are the guardrail's own.
 */
export const PII_PATTERNS: ReadonlyArray<EntityPattern<PiiEntity>> = [
  ...shared('email'),
  ...shared('card'),
  ...shared('iban'),
  {
    entity: 'US_SSN',
    // Never issued: area 000, 666 or 900-999, group 00, serial 0000.
    regex: /(?<![\d-])(?!000|666|9\d\d)\d{3}-(?!00)\d{2}-(?!0000)\d{4}(?![\d-])/g,
  },
  {
    entity: 'IP_ADDRESS',
    regex: new RegExp(`(?<![\\d.])(?:${OCTET}\\.){3}${OCTET}(?!\\d|\\.\\d)`, 'g'),
  },
  ...shared('phone'),
];

/** The shared detectors of one kind, as entity patterns. */
function shared(kind: keyof typeof PII_ENTITY_OF_KIND): Array<EntityPattern<PiiEntity>> {
  return PII_DETECTORS.filter((detector) => detector.kind === kind).map((detector) => ({
    entity: PII_ENTITY_OF_KIND[kind] as PiiEntity,
    regex: detector.regex,
    valid: detector.valid,
  }));
}

/** Secret detectors (credentials that must not travel in prompts or responses). */
export const SECRET_PATTERNS: ReadonlyArray<EntityPattern<SecretEntity>> = [
  {
    entity: 'PRIVATE_KEY',
    scan: privateKeyBlocks,
  },
  {
    entity: 'API_KEY',
    // OpenAI-, Anthropic- and Stripe-style secret keys: sk-..., sk-proj-..., sk_live_...
    regex: /(?<![\w-])sk[-_][A-Za-z0-9_-]{20,}(?![\w-])/g,
    // A real key mixes letters and digits; `sk-this-is-just-a-long-slug` is not one.
    valid: (match) => /\d/.test(match.slice(3)) && /[A-Za-z]/.test(match.slice(3)),
  },
  {
    entity: 'AWS_ACCESS_KEY',
    regex: /(?<![A-Za-z0-9])(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Za-z0-9])/g,
  },
  {
    entity: 'GITHUB_TOKEN',
    regex:
      /(?<![A-Za-z0-9_])(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})(?![A-Za-z0-9_])/g,
  },
  {
    entity: 'PASSWORD',
    // Only the value (group 1) is the finding, so `mask` keeps the key: `password=[PASSWORD]`. A
    // value does not end with sentence punctuation: `password=hunter2.` ends a sentence. The key
    // is matched forwards: as a lookbehind it rescanned each whitespace run from every position
    // in it (quadratic: 160 KiB of blanks took 16 s).
    regex:
      /(?<![A-Za-z])(?:password|passwd|pwd|passphrase)["']?\s*[:=]\s*("[^"\n]+"|'[^'\n]+'|[^\s"',;]*[^\s"',;.!?:)\]])/dgi,
    group: 1,
  },
];
