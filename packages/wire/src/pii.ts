/**
 * The one definition of the personal data that both sides find: the exporter's `maskPII` masks
 * it before a text leaves the app, the local service's `pii` guardrail and `pii_leakage` metric
 * detect it. Same shapes, same digit counts, same placeholders (contract decision, see
 * docs/wire-contract.md). Every pattern starts behind a negative lookbehind, so a match begins
 * only at the edge of a run of candidate characters, and every repetition is bounded: each takes
 * time linear in the text, whatever the input.
 */

/** What a masked finding of each kind becomes, on both sides. */
export const PII_PLACEHOLDERS = {
  email: '[EMAIL]',
  iban: '[IBAN]',
  card: '[CARD]',
  phone: '[PHONE]',
} as const;

/** A kind of personal data of {@link PII_PLACEHOLDERS}. */
export type PiiKind = keyof typeof PII_PLACEHOLDERS;

/** The guardrail entity name of each kind (the `pii` validator's `entities` values). */
export const PII_ENTITY_OF_KIND: Readonly<Record<PiiKind, string>> = {
  email: 'EMAIL_ADDRESS',
  iban: 'IBAN_CODE',
  card: 'CREDIT_CARD',
  phone: 'PHONE_NUMBER',
};

/** One detector: a global regex and the check of a match's digits (checksum, count, shape). */
export interface PiiDetector {
  kind: PiiKind;
  /** Global; used only through `replace`/`matchAll`, which never share its `lastIndex`. */
  regex: RegExp;
  valid: (match: string) => boolean;
}

const EMAIL = /(?<![\w.%+-])[\w.%+-]{1,64}@[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63}){1,8}(?![\w-])/g;
const IBAN =
  /(?<![A-Za-z0-9])[A-Za-z]{2}\d{2}(?: ?[A-Za-z0-9]{4}){2,7}(?: ?[A-Za-z0-9]{1,3})?(?![A-Za-z0-9])/g;
const CARD = /(?<![\d-])\d(?:[ -]?\d){12,18}(?![\d-])/g;
// Phones. Apart from the `+` form, a phone may not start right after a word character, `#` (an id),
// `+`, `.`, `,`, `/`, `-`, or a digit and a space (inside a longer run of numbers, such as an IBAN or
// a card failing its checksum), and may not end before a word character or before `.`, `,`, `:`, `/`
// or `-` and a digit (a decimal, a date, a version, a longer id).
// Each repeated group starts with its separator, so digits can never be split between groups two ways.
// International: `+`, digits, single separators (space . - /) and `(area)` groups: 7 to 15 digits.
const PHONE_INTL = /(?<![\w+])\+\(?\d[\d ()./-]{5,30}\d(?!\w)/g;
// National with a trunk 0: `0170 1234567`, `0170/1234567`, `06 12 34 56 78`, `0612345678`.
const PHONE_NATIONAL =
  /(?<![\w#+.,/-]|\d )0[1-9]\d{0,10}(?:([ ./-])\d{2,8}(?:\1\d{2,8}){0,3})?(?!\w|[.,:/-]\d)/g;
// An area code in brackets: `(555) 123-4567`, `(030) 1234567`.
const PHONE_BRACKETED =
  /(?<![\w)])\(\d{2,5}\) ?\d{2,8}(?:([ .-])\d{2,8}(?:\1\d{2,8}){0,2})?(?!\w|[.,:/-]\d)/g;
// North American: `415-555-0100`, `415.555.0100`, `1-800-555-0199`, `4155550100` (compact: area and
// exchange start with 2-9).
const PHONE_NANP =
  /(?<![\w#+.,/-]|\d )(?:(?:1[ .-])?\d{3}([ .-])\d{3}\1\d{4}|[2-9]\d{2}[2-9]\d{6})(?!\w|[.,:/-]\d)/g;
// A 7-digit local number with a dash: `555-0100`.
const PHONE_LOCAL = /(?<![\w#+.,/-]|\d )[2-9]\d{2}-\d{4}(?!\w|[.,:/-]\d)/g;

/** Luhn checksum of a string of digits. */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i -= 1) {
    let digit = digits.charCodeAt(i) - 48;
    if (double) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
    double = !double;
  }
  return digits.length > 0 && sum % 10 === 0;
}

/** ISO 13616 mod-97 check of an IBAN (spaces allowed, any case). */
export function ibanValid(iban: string): boolean {
  const compact = iban.replaceAll(' ', '').toUpperCase();
  if (compact.length < 15 || compact.length > 34 || !/^[A-Z]{2}\d{2}[A-Z0-9]+$/.test(compact)) return false;
  const rearranged = compact.slice(4) + compact.slice(0, 4);
  let remainder = 0;
  for (const char of rearranged) {
    const code = char.charCodeAt(0);
    // Letters count as two digits (A=10 … Z=35); fold digit by digit to stay within safe integers.
    const value = code <= 57 ? String(code - 48) : String(code - 55);
    for (const digit of value) remainder = (remainder * 10 + (digit.charCodeAt(0) - 48)) % 97;
  }
  return remainder === 1;
}

function digitCount(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code >= 48 && code <= 57) count += 1;
  }
  return count;
}

/** Whether `text` (after the `+`) is digit groups with single separators and `(1-5 digits)` groups. */
function intlShapeValid(text: string): boolean {
  let inBrackets = false;
  let bracketDigits = 0;
  let afterSeparator = false;
  for (const char of text) {
    if (char >= '0' && char <= '9') {
      if (inBrackets) bracketDigits += 1;
      afterSeparator = false;
    } else if (char === '(') {
      if (inBrackets) return false;
      inBrackets = true;
      bracketDigits = 0;
      afterSeparator = false;
    } else if (char === ')') {
      if (!inBrackets || bracketDigits === 0 || bracketDigits > 5) return false;
      inBrackets = false;
      afterSeparator = false;
    } else {
      // A separator (space . - /): one at a time, never inside brackets.
      if (inBrackets || afterSeparator) return false;
      afterSeparator = true;
    }
  }
  return !inBrackets;
}

function intlPhoneValid(match: string): boolean {
  const count = digitCount(match);
  return count >= 7 && count <= 15 && intlShapeValid(match.slice(1));
}

function nationalPhoneValid(match: string): boolean {
  const count = digitCount(match);
  // The regex allows one kind of separator, first seen after the leading digits.
  const separator = /[ ./-]/.exec(match)?.[0];
  if (separator === undefined) return count >= 10 && count <= 12;
  const lengths = match.split(separator).map((group) => group.length);
  // The area code has 2 to 5 digits; dd.mm.yyyy is a date; dotted short groups are an IP address.
  if ((lengths[0] as number) > 5) return false;
  if (lengths.length === 3 && lengths[0] === 2 && lengths[1] === 2 && lengths[2] === 4) return false;
  if (separator === '.' && lengths.length === 4 && lengths.every((length) => length <= 3)) return false;
  return count >= 8 && count <= 12;
}

function bracketedPhoneValid(match: string): boolean {
  const count = digitCount(match);
  return count >= 9 && count <= 12;
}

const always = () => true;

/**
 * The detectors, in the order the exporter masks with them (each pass on the previous one's
 * output): `+` numbers before cards, or the card rule would take `+4915112345678`'s digits.
 * E-mails (`[EMAIL]`); IBANs with a valid checksum (`[IBAN]`); cards of 13 to 19 digits passing
 * Luhn (`[CARD]`); phones (`[PHONE]`): international `+` numbers of 7 to 15 digits, national
 * numbers with a trunk 0 of 8 to 12 digits, a bracketed area code (9 to 12 digits), North
 * American 10-digit numbers and 7-digit local numbers with a dash.
 */
export const PII_DETECTORS: readonly PiiDetector[] = [
  { kind: 'email', regex: EMAIL, valid: always },
  { kind: 'iban', regex: IBAN, valid: ibanValid },
  { kind: 'phone', regex: PHONE_INTL, valid: intlPhoneValid },
  { kind: 'card', regex: CARD, valid: (match) => luhnValid(match.replace(/[ -]/g, '')) },
  { kind: 'phone', regex: PHONE_NATIONAL, valid: nationalPhoneValid },
  { kind: 'phone', regex: PHONE_BRACKETED, valid: bracketedPhoneValid },
  { kind: 'phone', regex: PHONE_NANP, valid: always },
  { kind: 'phone', regex: PHONE_LOCAL, valid: always },
];
