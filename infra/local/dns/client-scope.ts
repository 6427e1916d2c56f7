/**
 * The ECS scope prefix length of an answer chosen by a longest-prefix match
 * (RFC 7871 §7.2.1): long enough that the client's scope network contains no
 * more specific block that would have chosen differently.
 */
import { bitsOf, cidrContains, type CidrBlock, type IpAddress } from './ip.js';

function commonPrefixLength(a: bigint, b: bigint, bits: number): number {
  let diff = a ^ b;
  let length = bits;
  while (diff > 0n) {
    diff >>= 1n;
    length -= 1;
  }
  return length;
}

/**
 * @param matchedLength the prefix length of the block that matched (0 for a default / `*` answer)
 * @param blocks every block that takes part in the match
 */
export function scopeOfMatch(client: IpAddress, matchedLength: number, blocks: readonly CidrBlock[]): number {
  let scope = matchedLength;
  for (const block of blocks) {
    if (block.family !== client.family || block.prefixLength <= matchedLength || cidrContains(block, client))
      continue;
    const shared = commonPrefixLength(client.value, block.network, bitsOf(client.family));
    if (shared < block.prefixLength) scope = Math.max(scope, shared + 1);
  }
  return Math.min(scope, bitsOf(client.family));
}
