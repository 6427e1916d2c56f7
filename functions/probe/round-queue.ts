/** Where the tick puts the minute's rounds: the region's round queue. */
import type { RoundMessageEntry } from '../../shared/probe/round-message.js';

export interface RoundQueue {
  /** Sends up to 10 entries as one request; throws when any entry was not accepted. */
  sendRounds(entries: readonly RoundMessageEntry[]): Promise<void>;
}
