/**
 * The ECS scope prefix length of an answer chosen by a longest-prefix match
 * (RFC 7871 §7.2.1): long enough that the client's scope network contains no
 * more specific block that would have chosen differently.
 */
import { ADDRESS_BITS, cidrContains, type Cidr, type IpAddress } from '../../../shared/ip/addresses.js';

/**
 * @param matchedLength the prefix length of the block that matched (0 for a default / `*` answer)
 * @param blocks every block that takes part in the match
 */
export function scopeOfMatch(client: IpAddress, matchedLength: number, blocks: readonly Cidr[]): number {
  let scope = matchedLength;
  for (const block of blocks) {
    if (block.family !== client.family || block.prefix <= matchedLength || cidrContains(block, client))
      continue;
    // The common prefix: the bits above the highest one that differs (one does: the block does
    // not contain the client).
    const shared = ADDRESS_BITS[client.family] - (client.value ^ block.network).toString(2).length;
    if (shared < block.prefix) scope = Math.max(scope, shared + 1);
  }
  return Math.min(scope, ADDRESS_BITS[client.family]);
}
