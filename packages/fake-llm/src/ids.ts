import { randomBytes } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A random id shaped like the real services' ids: `prefix` plus `length` alphanumerics. */
export function makeId(prefix: string, length = 24): string {
  const bytes = randomBytes(length);
  let id = prefix;
  for (const byte of bytes) id += ALPHABET[byte % ALPHABET.length];
  return id;
}

/** Unix time in seconds, as OpenAI's `created` fields. */
export function unixSeconds(): number {
  return Math.floor(Date.now() / 1000);
}
