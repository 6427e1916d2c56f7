/**
 * Which evaluation a stream record asks for, and which records are refused as malformed (the
 * handler reports those as batch item failures, so the stream retries and then dead-letters
 * them instead of dropping them or evaluating nonsense).
 */
import type { DynamoDBRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { MalformedRecordError } from '../../functions/evaluator/errors.js';
import { triggerOf } from '../../functions/evaluator/stream-records.js';

type Image = NonNullable<NonNullable<DynamoDBRecord['dynamodb']>['NewImage']>;

function record(
  pk: string | undefined,
  sk: string | undefined,
  image: Image | undefined,
  eventName: DynamoDBRecord['eventName'] = 'MODIFY',
): DynamoDBRecord {
  return {
    eventID: 'e1',
    eventName,
    dynamodb: {
      Keys: {
        ...(pk === undefined ? {} : { pk: { S: pk } }),
        ...(sk === undefined ? {} : { sk: { S: sk } }),
      },
      ...(image === undefined ? {} : { NewImage: image }),
    },
  };
}

describe('a stream record → the evaluation it triggers', () => {
  it.each<[string, DynamoDBRecord, unknown]>([
    [
      'a verdict',
      record('VERDICT#us-east-1#t1', 'VERDICT', { verdict: { S: 'down' } }),
      { kind: 'target', targetKey: 't1' },
    ],
    [
      'a removed verdict',
      record('VERDICT#us-east-1#t1', 'VERDICT', undefined, 'REMOVE'),
      { kind: 'target', targetKey: 't1' },
    ],
    [
      'a profile definition',
      record('CONFIG', 'PROFILE#shop', { definition: { S: '{"name":"shop"}' } }),
      { kind: 'config', profile: 'shop' },
    ],
    [
      'a removed profile',
      record('CONFIG', 'PROFILE#shop', undefined, 'REMOVE'),
      { kind: 'config', profile: 'shop' },
    ],
    ['the tick', record('TICK', 'REGIONS', { at: { N: '1' } }), { kind: 'tick' }],
    ['the outbox trigger', record('TICK', 'OUTBOX', { at: { N: '1' } }), { kind: 'outbox' }],
    [
      'a runtime status',
      record('CONTROL', 'STATUS#shop#east', { status: { S: 'Disabled' } }),
      { kind: 'control', profile: 'shop' },
    ],
    [
      'an expired override removed',
      record('CONTROL', 'OVERRIDE#shop#east', undefined, 'REMOVE'),
      { kind: 'control', profile: 'shop' },
    ],
  ])('%s', (_what, input, trigger) => {
    expect(triggerOf(input)).toEqual(trigger);
  });
});

describe('malformed records are refused with the record named', () => {
  it.each<[string, DynamoDBRecord, RegExp]>([
    ['no keys', record(undefined, 'VERDICT', { verdict: { S: 'up' } }), /^record e1: no pk\/sk keys$/],
    [
      'an update without a new image',
      record('VERDICT#us-east-1#t1', 'VERDICT', undefined, 'INSERT'),
      /INSERT without a new image/,
    ],
    [
      'a verdict key without a target',
      record('VERDICT#us-east-1', 'VERDICT', { verdict: { S: 'up' } }),
      /not VERDICT#<region>#<targetKey>/,
    ],
    [
      'a verdict that is neither up nor down',
      record('VERDICT#us-east-1#t1', 'VERDICT', { verdict: { S: 'maybe' } }),
      /verdict must be up or down/,
    ],
    [
      'a definition that is not JSON',
      record('CONFIG', 'PROFILE#shop', { definition: { S: '{not json' } }),
      /definition is not a JSON profile/,
    ],
    [
      'a definition that is a JSON list',
      record('CONFIG', 'PROFILE#shop', { definition: { S: '[]' } }),
      /definition is not a JSON profile/,
    ],
    [
      'a definition missing',
      record('CONFIG', 'PROFILE#shop', { other: { S: 'x' } }),
      /definition is not a JSON profile/,
    ],
    [
      'a control of an unknown kind',
      record('CONTROL', 'PAUSE#shop', { at: { N: '1' } }),
      /CONTROL\/PAUSE#shop is not a runtime control/,
    ],
    [
      'a control without a profile',
      record('CONTROL', 'STATUS#', { at: { N: '1' } }),
      /is not a runtime control/,
    ],
    [
      'an item kind the evaluator does not read',
      record('REGION#us-east-1', 'HEARTBEAT', { at: { N: '1' } }),
      /REGION#us-east-1\/HEARTBEAT is not an evaluator trigger/,
    ],
  ])('%s', (_what, input, message) => {
    expect(() => triggerOf(input)).toThrow(MalformedRecordError);
    expect(() => triggerOf(input)).toThrow(message);
  });
});
