/**
 * The local Route 53's changes: every accepted change gets an id and is PENDING
 * until `changeDelayMs` has passed, then INSYNC (what GetChange reports).
 * https://docs.aws.amazon.com/Route53/latest/APIReference/API_GetChange.html
 */
import { randomUUID } from 'node:crypto';
import type { Clock } from '../../../shared/clock.js';
import { route53Error } from './errors.js';

export type ChangeStatus = 'PENDING' | 'INSYNC';

export interface ChangeView {
  readonly id: string;
  readonly status: ChangeStatus;
  readonly submittedAt: Date;
  readonly comment?: string;
}

type ChangeState = Omit<ChangeView, 'status'>;

export class ChangeLog {
  private readonly changes = new Map<string, ChangeState>();

  constructor(
    private readonly clock: Clock,
    private readonly changeDelayMs: number,
    private readonly newId: (prefix: string) => string,
  ) {}

  /** Route 53 answers every submitted change as PENDING; GetChange reports INSYNC once the delay has passed. */
  record(comment: string | undefined): ChangeView {
    const change: ChangeState = {
      id: this.newId('C'),
      submittedAt: new Date(this.clock.now()),
      ...(comment === undefined ? {} : { comment }),
    };
    this.changes.set(change.id, change);
    return { ...change, status: 'PENDING' };
  }

  get(id: string): ChangeView {
    const change = this.changes.get(id);
    if (change === undefined)
      throw route53Error('NoSuchChange', `A change with the specified change ID does not exist: ${id}`);
    return { ...change, status: this.isPending(id) ? 'PENDING' : 'INSYNC' };
  }

  isPending(id: string | undefined): boolean {
    const change = id === undefined ? undefined : this.changes.get(id);
    return change !== undefined && this.clock.now() - change.submittedAt.getTime() < this.changeDelayMs;
  }
}

const ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** Route 53-looking ids (`Z…`, `C…`, 14 characters): a prefix, a sequence number, then letters and digits. */
export function route53Ids(): (prefix: string) => string {
  let sequence = 0;
  return (prefix) => {
    sequence += 1;
    const filler = randomUUID().replace(/-/g, '');
    let id = `${prefix}${sequence.toString(36).toUpperCase()}`;
    for (let index = 0; id.length < 14; index += 1)
      id += ID_ALPHABET[parseInt(filler.slice(index * 2, index * 2 + 2), 16) % ID_ALPHABET.length];
    return id;
  };
}
