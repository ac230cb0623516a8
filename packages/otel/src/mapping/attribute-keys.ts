import { hasKeyWithPrefix } from './indexed.js';

const NO_KEYS: readonly string[] = [];

/** One of 32 bits for a string's first UTF-16 unit (different units may share a bit). */
function firstCharBit(text: string): number {
  return 1 << (text.charCodeAt(0) & 31);
}

/**
 * The attribute keys of one span, listed once, with a 32-bit summary of their first characters.
 * Conventions look for key prefixes (`traceloop.`, `langsmith.metadata.`, `llm.input_messages.`)
 * on every span, and most spans have none of them: when no key shares a prefix's first character
 * the summary answers at once. A shared bit only means "scan", so every answer is the one a scan
 * over all keys gives.
 */
export class AttributeKeys {
  /** Every key, in attribute order. */
  readonly all: readonly string[];
  readonly #firstChars: number;

  constructor(keys: readonly string[]) {
    this.all = keys;
    let firstChars = 0;
    for (const key of keys) firstChars |= firstCharBit(key);
    this.#firstChars = firstChars;
  }

  /** Whether any key starts with `prefix`. */
  hasPrefix(prefix: string): boolean {
    return this.#mayHave(prefix) && hasKeyWithPrefix(this.all, prefix);
  }

  /** The keys that start with `prefix`, in attribute order. */
  withPrefix(prefix: string): readonly string[] {
    return this.#mayHave(prefix) ? this.all.filter((key) => key.startsWith(prefix)) : NO_KEYS;
  }

  /** `false` only when no key can start with `prefix`. */
  #mayHave(prefix: string): boolean {
    // Every key starts with the empty prefix: only a scan can say whether there is one.
    return prefix === '' || (this.#firstChars & firstCharBit(prefix)) !== 0;
  }
}
