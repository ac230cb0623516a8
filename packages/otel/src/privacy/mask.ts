/**
 * Rewrites a text value before it leaves the process. `field` names where the value goes
 * (`prompt`, `response`, `context`, `errorMessage`, `sessionId`, `userId`, `metadata.<key>`,
 * `span.attributes.<key>`, `span.events.<name>.<key>`, `span.status`), so a mask can treat fields
 * differently. A mask that throws (or returns a non-string) blanks the value rather than leaking it.
 */
export type MaskFunction = (value: string, info: { field: string }) => string;

/** What {@link maskPII} puts in place of each kind of personal data. */
export const PII_PLACEHOLDERS = {
  email: '[EMAIL]',
  iban: '[IBAN]',
  card: '[CARD]',
  phone: '[PHONE]',
} as const;

// Every pattern below starts behind a negative lookbehind, so a match can only begin at the edge of
// a run of candidate characters, and every repetition is bounded: no pattern can backtrack more
// than a constant amount per position, whatever the input.
const EMAIL = /(?<![\w.%+-])[\w.%+-]{1,64}@[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63}){1,8}(?![\w-])/g;
const IBAN =
  /(?<![A-Za-z0-9])[A-Za-z]{2}\d{2}(?: ?[A-Za-z0-9]{4}){2,7}(?: ?[A-Za-z0-9]{1,3})?(?![A-Za-z0-9])/g;
const CARD = /(?<![\d-])\d(?:[ -]?\d){12,18}(?![\d-])/g;
// Phones. Apart from the `+` form, a phone may not start right after a word character, `#` (an id),
// `+`, `.`, `,`, `/`, `-`, or a digit and a space (inside a longer run of numbers, such as an IBAN or
// a card failing its checksum), and may not end before a word character or before `.`, `,`, `:`, `/`
// or `-` and a digit (a decimal, a date, a version, a longer id).
// Each repeated group starts with its separator, so digits can never be split between groups two ways.
// International: `+`, digits, single separators (space . - /) and `(area)` groups, as one bounded
// character class; maskIntlPhone checks the shape and the 7 to 15 digits.
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
function luhnValid(digits: string): boolean {
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
  return sum % 10 === 0;
}

/** ISO 13616 mod-97 check of an IBAN without spaces. */
function ibanValid(compact: string): boolean {
  if (compact.length < 15 || compact.length > 34) return false;
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

function maskIban(match: string): string {
  const compact = match.replaceAll(' ', '').toUpperCase();
  return ibanValid(compact) ? PII_PLACEHOLDERS.iban : match;
}

function maskCard(match: string): string {
  const digits = match.replace(/[ -]/g, '');
  return luhnValid(digits) ? PII_PLACEHOLDERS.card : match;
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

function maskIntlPhone(match: string): string {
  const count = digitCount(match);
  return count >= 7 && count <= 15 && intlShapeValid(match.slice(1)) ? PII_PLACEHOLDERS.phone : match;
}

function maskNationalPhone(match: string, separator: string | undefined): string {
  const count = digitCount(match);
  if (separator === undefined) return count >= 10 && count <= 12 ? PII_PLACEHOLDERS.phone : match;
  const lengths = match.split(separator).map((group) => group.length);
  // The area code has 2 to 5 digits; dd.mm.yyyy is a date; dotted short groups are an IP address.
  if (lengths[0]! > 5) return match;
  if (lengths.length === 3 && lengths[0] === 2 && lengths[1] === 2 && lengths[2] === 4) return match;
  if (separator === '.' && lengths.length === 4 && lengths.every((length) => length <= 3)) return match;
  return count >= 8 && count <= 12 ? PII_PLACEHOLDERS.phone : match;
}

function maskBracketedPhone(match: string): string {
  const count = digitCount(match);
  return count >= 9 && count <= 12 ? PII_PLACEHOLDERS.phone : match;
}

/**
 * A ready {@link MaskFunction} that replaces e-mail addresses (`[EMAIL]`), IBANs with a valid
 * checksum (`[IBAN]`), card numbers of 13 to 19 digits passing the Luhn check (`[CARD]`) and phone
 * numbers (`[PHONE]`): international `+` numbers of 7 to 15 digits (separators space . - /, `(area)`
 * groups), national numbers with a trunk 0 of 8 to 12 digits (`0170 1234567`, `06 12 34 56 78`,
 * `0612345678`), a bracketed area code (`(555) 123-4567`), North American 10-digit numbers with or
 * without separators (`415-555-0100`, `4155550100`) and 7-digit local numbers with a dash
 * (`555-0100`). Dates, times, versions, amounts, IP addresses, short numbers and numbers failing the
 * checksums are left alone.
 *
 * @example
 * maskPII('Mail bob@example.com or call +1 415 555 0100', { field: 'prompt' });
 * // → 'Mail [EMAIL] or call [PHONE]'
 */
export const maskPII: MaskFunction = (value) => {
  // Cheap pre-checks skip the regex passes for the common text without '@' or digits.
  let out = value.includes('@') ? value.replace(EMAIL, PII_PLACEHOLDERS.email) : value;
  if (!/\d/.test(out)) return out;
  out = out.replace(IBAN, maskIban);
  // `+` numbers first: the card rule would otherwise take `+4915112345678`'s digits and leave the `+`.
  out = out.replace(PHONE_INTL, maskIntlPhone);
  out = out.replace(CARD, maskCard);
  out = out.replace(PHONE_NATIONAL, (match: string, separator: string | undefined) =>
    maskNationalPhone(match, separator),
  );
  out = out.replace(PHONE_BRACKETED, maskBracketedPhone);
  out = out.replace(PHONE_NANP, PII_PLACEHOLDERS.phone);
  out = out.replace(PHONE_LOCAL, PII_PLACEHOLDERS.phone);
  return out;
};
