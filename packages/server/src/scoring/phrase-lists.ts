import type { Finding } from './findings.js';

/** A phrase to look for, with how strongly a match indicates a violation (0..1). */
export interface WeightedPhrase {
  regex: RegExp;
  weight: number;
}

/**
 * Builds a case-insensitive, whole-word, Unicode-aware matcher from a regex source in which a
 * space stands for any run of white space.
 */
function phrase(source: string, weight: number): WeightedPhrase {
  const spaced = source.replace(/ /g, '\\s+');
  return { regex: new RegExp(`(?<![\\p{L}\\p{N}])(?:${spaced})(?![\\p{L}\\p{N}])`, 'giu'), weight };
}

/** Known prompt-injection and jailbreak phrases. */
export const INJECTION_PHRASES: readonly WeightedPhrase[] = [
  phrase(
    '(?:ignore|disregard|forget|skip) (?:all |any )?(?:of )?(?:the |your |my )?(?:previous|prior|above|earlier|preceding|original|initial) (?:instructions?|prompts?|rules|directions|guidelines|messages?)',
    0.9,
  ),
  phrase(
    '(?:ignore|disregard|forget) (?:all |everything )?(?:you were told|your (?:instructions|rules|guidelines))',
    0.85,
  ),
  phrase(
    'you are now (?:dan|in developer mode|jailbroken|unrestricted|unfiltered|an? (?:unrestricted|unfiltered|uncensored) \\S+)',
    0.95,
  ),
  phrase('do anything now', 0.9),
  phrase(
    '(?:reveal|show|print|repeat|output|display|tell me|leak) (?:me )?(?:your|the) (?:full |entire |hidden |secret |original )?(?:system prompt|system message|hidden instructions|initial instructions|instructions above)',
    0.85,
  ),
  phrase('(?:enable|activate|enter) developer mode|developer mode (?:enabled|activated|on)', 0.7),
  phrase('pretend (?:that )?you (?:are|have) no (?:restrictions|rules|guidelines|filters|limits)', 0.8),
  phrase('act as (?:if you were )?an? (?:unrestricted|unfiltered|uncensored|jailbroken) \\S+', 0.8),
  phrase(
    '(?:bypass|override|disable) (?:your |the |all )?(?:safety|security|content) (?:rules|policies|filters|guidelines|restrictions)',
    0.85,
  ),
  phrase('jailbreak(?:ing|ed)?', 0.6),
  phrase('new instructions:', 0.5),
];

/** Insults, profanity and threats, weighted by severity. */
export const TOXIC_TERMS: readonly WeightedPhrase[] = [
  // Threats and incitement.
  phrase("(?:i['’]?ll|i will|i['’]m going to|gonna) (?:kill|hurt|destroy|find) you", 1),
  phrase('kill yourself|kys', 1),
  // Direct hate.
  phrase('i hate you|go to hell|drop dead', 0.7),
  // Insults.
  phrase('idiots?|morons?|imbeciles?|stupid|dumb|losers?|worthless|pathetic|scum|jerks?', 0.6),
  phrase('assholes?|bastards?|bitch(?:es)?|dickheads?', 0.7),
  phrase('shut up', 0.5),
  // Profanity.
  phrase('fuck(?:ing|ed|er|s)?|motherfuck(?:er|ing)', 0.5),
  phrase('shit(?:ty|s)?|bullshit', 0.4),
  phrase('crap(?:py)?|damn(?:ed)?|hell no', 0.2),
];

/** Every match of the phrases in `text`, weighted, unmerged. */
export function findPhrases(text: string, phrases: readonly WeightedPhrase[], entity: string): Finding[] {
  return phrases.flatMap(({ regex, weight }) =>
    [...text.matchAll(regex)].map((match) => ({
      start: match.index,
      end: match.index + match[0].length,
      entity,
      weight,
    })),
  );
}
