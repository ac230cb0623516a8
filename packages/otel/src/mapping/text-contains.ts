/**
 * Longest text the containment check searches. Prompts beyond it are not searched: the check
 * answers `false`, and the caller keeps its default.
 */
export const MAX_SEARCHED_CHARS = 262_144;

/**
 * Whether `needle` occurs in `haystack`, in time linear in their lengths whatever the text
 * (Knuth–Morris–Pratt; the prefix table is at most as long as the needle). `false` for an empty
 * needle and for a haystack longer than {@link MAX_SEARCHED_CHARS}: end users' text is hostile,
 * and the work per record stays bounded.
 */
export function containsText(haystack: string, needle: string): boolean {
  const n = haystack.length;
  const m = needle.length;
  if (m === 0 || m > n || n > MAX_SEARCHED_CHARS) return false;
  // failure[i]: length of the longest proper prefix of needle[0..i] that is also its suffix.
  const failure = new Uint32Array(m);
  for (let i = 1, k = 0; i < m; i += 1) {
    while (k > 0 && needle.charCodeAt(i) !== needle.charCodeAt(k)) k = failure[k - 1]!;
    if (needle.charCodeAt(i) === needle.charCodeAt(k)) k += 1;
    failure[i] = k;
  }
  for (let i = 0, k = 0; i < n; i += 1) {
    while (k > 0 && haystack.charCodeAt(i) !== needle.charCodeAt(k)) k = failure[k - 1]!;
    if (haystack.charCodeAt(i) === needle.charCodeAt(k)) k += 1;
    if (k === m) return true;
  }
  return false;
}
