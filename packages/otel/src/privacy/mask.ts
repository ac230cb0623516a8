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
// International (+…) or bracketed area code forms.
const PHONE_INTL = /(?<![\w+])(?:\+\d{1,3}|\(\d{1,4}\))[\d ().-]{5,20}\d(?!\w)/g;
// National forms with one consistent separator: 555-123-4567, 020 7946 0958, 555.123.4567.
const PHONE_NATIONAL = /(?<![\w.+-])\d{2,4}([ .-])\d{2,4}\1\d{2,5}(?:\1\d{2,5})?(?![\w]|[.-]\d)/g;

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

function maskIntlPhone(match: string): string {
  const count = digitCount(match);
  return count >= 7 && count <= 15 ? PII_PLACEHOLDERS.phone : match;
}

function maskNationalPhone(match: string, separator: string): string {
  const groups = match.split(separator);
  // Dotted quads of short groups are IP addresses, not phone numbers.
  if (separator === '.' && groups.length === 4 && groups.every((group) => group.length <= 3)) return match;
  const count = digitCount(match);
  return count >= 9 && count <= 15 ? PII_PLACEHOLDERS.phone : match;
}

/**
 * A ready {@link MaskFunction} that replaces e-mail addresses (`[EMAIL]`), IBANs with a valid
 * checksum (`[IBAN]`), card numbers of 13 to 19 digits passing the Luhn check (`[CARD]`) and phone
 * numbers (`[PHONE]`: international `+…` or `(…)` forms, and national forms of 9 to 15 digits with
 * one consistent separator). Dates, IP addresses and numbers failing the checksums are left alone.
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
  out = out.replace(CARD, maskCard);
  out = out.replace(PHONE_INTL, maskIntlPhone);
  out = out.replace(PHONE_NATIONAL, (match: string, separator: string) =>
    maskNationalPhone(match, separator),
  );
  return out;
};
