/** A DynamoDB stream record → the trigger it stands for, or a `MalformedRecordError`. */
import type { DynamoDBRecord } from 'aws-lambda';
import type { Trigger } from '../../shared/evaluation/triggers.js';
import { ControlKind, KeyPrefix, Keys, verdictKeyParts } from '../../shared/state/keys.js';
import { RegionVerdict } from '../../shared/status/vocabulary.js';
import { MalformedRecordError } from './errors.js';

export function triggerOf(record: DynamoDBRecord): Trigger {
  const keys = record.dynamodb?.Keys;
  const pk = keys?.pk?.S;
  const sk = keys?.sk?.S;
  if (pk === undefined || sk === undefined)
    throw new MalformedRecordError(`record ${record.eventID}: no pk/sk keys`);
  const image = record.eventName === 'REMOVE' ? undefined : record.dynamodb?.NewImage;
  if (record.eventName !== 'REMOVE' && image === undefined) {
    throw new MalformedRecordError(
      `record ${record.eventID} (${pk}): ${record.eventName} without a new image`,
    );
  }

  if (pk.startsWith(KeyPrefix.verdict)) {
    const parts = verdictKeyParts(pk);
    if (parts === undefined)
      throw new MalformedRecordError(`record ${record.eventID} (${pk}): not VERDICT#<region>#<targetKey>`);
    const verdict = image?.verdict?.S;
    if (image !== undefined && verdict !== RegionVerdict.Up && verdict !== RegionVerdict.Down) {
      throw new MalformedRecordError(`record ${record.eventID} (${pk}): verdict must be up or down`);
    }
    return { kind: 'target', targetKey: parts.targetKey };
  }
  if (pk === KeyPrefix.config && sk.startsWith('PROFILE#')) {
    const definition = image?.definition?.S;
    if (image !== undefined && !isJsonObject(definition)) {
      throw new MalformedRecordError(`record ${record.eventID} (${sk}): definition is not a JSON profile`);
    }
    return { kind: 'config', profile: sk.slice('PROFILE#'.length) };
  }
  if (pk === KeyPrefix.tick) {
    if (sk === Keys.outboxTrigger().sk) return { kind: 'outbox' };
    if (sk === Keys.reconcileRequest().sk) return { kind: 'reconcile' };
    return { kind: 'tick' };
  }
  if (pk === KeyPrefix.control) {
    // STATUS#, VERSION# (<profile>#<endpoint|*>) or OVERRIDE#<profile>#<endpoint>: names never contain '#'.
    const [kind, profile] = sk.split('#');
    if (CONTROL_KINDS.includes(`${kind}#`) && profile !== undefined && profile !== '')
      return { kind: 'control', profile };
    throw new MalformedRecordError(`record ${record.eventID}: ${pk}/${sk} is not a runtime control`);
  }
  throw new MalformedRecordError(`record ${record.eventID}: ${pk}/${sk} is not an evaluator trigger`);
}

const CONTROL_KINDS: readonly string[] = Object.values(ControlKind);

function isJsonObject(text: string | undefined): boolean {
  if (text === undefined) return false;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}
