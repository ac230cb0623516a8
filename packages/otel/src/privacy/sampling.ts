const HEX_TAIL = /^[0-9a-f]{13}$/i;
const TWO_POW_52 = 2 ** 52;

/**
 * A number in [0, 1) derived from the trace id alone. W3C trace ids are random in their right-most
 * bytes, so their last 13 hex digits (52 bits, exact in a double) are used as they are; any other
 * string is hashed (FNV-1a) so the decision stays deterministic.
 */
function tracePosition(traceId: string): number {
  const tail = traceId.slice(-13);
  if (HEX_TAIL.test(tail)) return Number.parseInt(tail, 16) / TWO_POW_52;
  let hash = 0x811c9dc5;
  for (let i = 0; i < traceId.length; i += 1) {
    hash ^= traceId.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) / 2 ** 32;
}

/**
 * Whether a trace is kept under `sampleRate` (0 keeps none, 1 keeps all). The decision depends on
 * the trace id only, so every span, log and process that sees the trace decides the same way.
 *
 * @example
 * isSampledIn('4bf92f3577b34da6a3ce929d0e0e4736', 0.25); // same answer every time
 */
export function isSampledIn(traceId: string, sampleRate: number): boolean {
  if (!(sampleRate < 1)) return true; // also covers NaN: never lose data by accident
  if (sampleRate <= 0) return false;
  return tracePosition(traceId) < sampleRate;
}
