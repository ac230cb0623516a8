import { describe, expect, it } from 'vitest';
import { cutText } from '../src/export/shrink-record.js';
import { truncationMarker } from '../src/privacy/text-sanitizer.js';

// A value cut once when it was mapped (maxValueChars) and again when the service answered 413:
// the final marker must count what was cut from the original, not only from the mapped value.
describe('cutText after an earlier cut', () => {
  it('counts the mapping truncation marker in the characters cut', () => {
    const original = 'a'.repeat(10_000);
    const mapped = `${original.slice(0, 4000)}${truncationMarker(6000)}`;
    expect(cutText(mapped, 1000)).toBe(`${'a'.repeat(1000)}…[cut 9000 chars]`);
  });

  it('counts its own earlier marker too, and leaves short text alone', () => {
    expect(cutText(`${'b'.repeat(500)}…[cut 100 chars]`, 300)).toBe(`${'b'.repeat(300)}…[cut 300 chars]`);
    expect(cutText('short', 300)).toBe('short');
  });
});
