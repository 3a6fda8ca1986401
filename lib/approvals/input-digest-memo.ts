import { stableStringify } from '@/lib/shared/stable-stringify';
import { inputDigestOf } from '@/lib/shells/input-digest';

/** How many digests are remembered (the oldest remembered is dropped past it). */
const rememberedDigests = 2_000;
/** Longer canonical inputs are hashed every time (a key of this map is kept in memory). */
const longestRememberedInput = 4_096;

const digestByCanonicalInput = new Map<string, string>();

/**
 * `inputDigestOf(input)`, remembered by the input's canonical JSON: an inbox page shows 50
 * digests, and an approver's list is read again and again with the same calls on it. Making
 * the canonical text costs a fifth of hashing it (a hash object per input), and the digest is
 * a function of that text alone, so a remembered one is never stale.
 */
export function rememberedInputDigest(input: unknown): string {
  const canonical = stableStringify(input);
  if (canonical.length > longestRememberedInput) return inputDigestOf(input);
  let digest = digestByCanonicalInput.get(canonical);
  if (digest === undefined) {
    digest = inputDigestOf(input);
    if (digestByCanonicalInput.size >= rememberedDigests) {
      const oldest = digestByCanonicalInput.keys().next().value;
      if (oldest !== undefined) digestByCanonicalInput.delete(oldest);
    }
    digestByCanonicalInput.set(canonical, digest);
  }
  return digest;
}
