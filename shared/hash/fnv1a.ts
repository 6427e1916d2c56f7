/**
 * FNV-1a, 32 bits, over the UTF-16 code units of `text`, as an unsigned integer: stable
 * across runs and platforms, and free of node:crypto (the core does no I/O). Keys and short
 * names use it; nothing relies on it against an adversary. A `salt` (xor-ed into the offset
 * basis) gives independent hashes of the same text.
 */
export function fnv1a32(text: string, salt = 0): number {
  let hash = (0x811c9dc5 ^ salt) >>> 0;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}
