import { aqmDiag } from '../diag.js';
import type { MaskFunction } from './mask.js';
import { toWellFormedText } from './well-formed.js';

/**
 * Extra characters kept past `maxValueChars` before masking, so that a value cut at the limit is
 * masked as a whole (an e-mail straddling the limit is still recognised) while masking a huge
 * value costs no more than masking a bounded one.
 */
export const MASK_SLACK_CHARS = 256;

/** A failing mask is reported at most this often (it would fail for every value). */
const MASK_FAILURE_REPORT_MS = 60_000;
let lastMaskFailureReport = Number.NEGATIVE_INFINITY;

/** Tells the app once a minute at most that its mask fails; names the field, never the value. */
function reportMaskFailure(field: string, problem: string): void {
  const now = Date.now();
  if (now - lastMaskFailureReport < MASK_FAILURE_REPORT_MS) return;
  lastMaskFailureReport = now;
  aqmDiag.warn(`The mask function ${problem} for field "${field}"; the value was blanked before sending.`);
}

/**
 * Where to cut `text` to keep at most `max` characters without splitting a surrogate pair: `max`,
 * or one less when the character before the cut is the first half of a pair.
 */
export function charBoundary(text: string, max: number): number {
  if (max <= 0 || text.length <= max) return Math.max(0, Math.min(max, text.length));
  const last = text.charCodeAt(max - 1);
  return last >= 0xd800 && last <= 0xdbff ? max - 1 : max;
}

/** The marker appended to a cut value: `…[truncated N chars]`. */
export function truncationMarker(removedChars: number): string {
  return `…[truncated ${removedChars} chars]`;
}

const MARKER_START = '…[truncated ';
const MARKER_END = ' chars]';

/**
 * A value an open trace already cut (see `ValueTrimmer`) ends in a marker: the text before it,
 * and how many characters were removed, so a second cut reports the total.
 */
function earlierCut(value: string): { text: string; removed: number } {
  if (!value.endsWith(MARKER_END)) return { text: value, removed: 0 };
  const at = value.lastIndexOf(MARKER_START);
  if (at < 0) return { text: value, removed: 0 };
  const digits = value.slice(at + MARKER_START.length, -MARKER_END.length);
  if (!/^\d{1,15}$/.test(digits)) return { text: value, removed: 0 };
  return { text: value.slice(0, at), removed: Number(digits) };
}

/**
 * Makes a string safe to send: repairs invalid text, applies the user's mask (a mask that throws
 * or returns a non-string blanks the value) and truncates to `maxValueChars` with a visible marker.
 */
export class TextSanitizer {
  readonly #maxValueChars: number;
  readonly #mask: MaskFunction | undefined;
  #maskFailures = 0;

  constructor(options: { maxValueChars: number; mask?: MaskFunction | undefined }) {
    this.#maxValueChars = Math.max(1, Math.floor(options.maxValueChars));
    this.#mask = options.mask;
  }

  /** How many values a throwing or misbehaving mask blanked. */
  get maskFailures(): number {
    return this.#maskFailures;
  }

  /** The sanitised form of `value`, bound for `field`. */
  clean(value: string, field: string): string {
    const max = this.#maxValueChars;
    const earlier = earlierCut(value);
    const whole = earlier.text;
    let text = whole.length > max + MASK_SLACK_CHARS ? whole.slice(0, max + MASK_SLACK_CHARS) : whole;
    const precut = whole.length - text.length + earlier.removed;
    text = toWellFormedText(text);
    if (this.#mask !== undefined) {
      text = this.#applyMask(text, field);
      if (text === '') return '';
    }
    return this.#truncate(text, precut);
  }

  /** Truncates only (no mask): for names and ids that are not user content. */
  truncate(value: string): string {
    const earlier = earlierCut(value);
    return this.#truncate(toWellFormedText(earlier.text), earlier.removed);
  }

  #applyMask(text: string, field: string): string {
    let problem: string;
    try {
      const masked = this.#mask!(text, { field });
      if (typeof masked === 'string') return toWellFormedText(masked);
      problem = `returned ${typeof masked} instead of a string`;
    } catch (error) {
      problem = `threw (${error instanceof Error ? error.name : typeof error})`;
    }
    // Blanking is the only answer that cannot leak what the mask was meant to hide.
    this.#maskFailures += 1;
    reportMaskFailure(field, problem);
    return '';
  }

  #truncate(text: string, alreadyRemoved: number): string {
    const max = this.#maxValueChars;
    if (text.length <= max && alreadyRemoved === 0) return text;
    const kept = text.length <= max ? text : text.slice(0, charBoundary(text, max));
    const removed = text.length - kept.length + alreadyRemoved;
    return removed > 0 ? kept + truncationMarker(removed) : kept;
  }
}
