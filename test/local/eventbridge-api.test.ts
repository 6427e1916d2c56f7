/**
 * The local EventBridge refuses what EventBridge refuses, through the real SDK client built by
 * the production factory:
 * https://docs.aws.amazon.com/eventbridge/latest/APIReference/API_PutEvents.html
 * https://docs.aws.amazon.com/eventbridge/latest/userguide/eb-putevent-size.html
 */
import { PutEventsCommand, type PutEventsRequestEntry } from '@aws-sdk/client-eventbridge';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventBridgeClient } from '../../functions/shared/aws-clients.js';
import { startLocalEventBridge, type LocalEventBridge } from '../support/local-eventbridge.js';

const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };
let bus: LocalEventBridge;
let client: ReturnType<typeof eventBridgeClient>;

beforeAll(async () => {
  bus = await startLocalEventBridge({ eventBuses: ['tm-bus'] });
  client = eventBridgeClient({ endpoint: bus.endpoint, region: 'us-east-1', credentials });
});
afterAll(async () => {
  client.destroy();
  await bus.stop();
});

const entry = (detail: unknown = { eventId: 'a' }): PutEventsRequestEntry => ({
  EventBusName: 'tm-bus',
  Source: 'traffic-manager',
  DetailType: 'EndpointStatusChanged',
  Detail: JSON.stringify(detail),
});

async function failure(promise: Promise<unknown>): Promise<{ name: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    return { name: (error as Error).name, message: (error as Error).message };
  }
  throw new Error('expected the call to fail');
}

describe('local EventBridge: PutEvents', () => {
  it('accepts up to 10 entries and keeps the events in order with their detail', async () => {
    // Act
    const before = bus.events.length;
    const out = await client.send(
      new PutEventsCommand({ Entries: Array.from({ length: 10 }, (_, i) => entry({ eventId: `e${i}` })) }),
    );

    // Assert
    expect(out.FailedEntryCount).toBe(0);
    expect(out.Entries?.every((e) => typeof e.EventId === 'string')).toBe(true);
    expect(bus.events.slice(before).map((e) => e.detail.eventId)).toEqual(
      Array.from({ length: 10 }, (_, i) => `e${i}`),
    );
  });

  it('refuses 11 entries and none, as EventBridge does (ValidationException)', async () => {
    // Act
    const eleven = await failure(
      client.send(new PutEventsCommand({ Entries: Array.from({ length: 11 }, () => entry()) })),
    );
    const none = await failure(client.send(new PutEventsCommand({ Entries: [] })));

    // Assert
    expect(eleven).toMatchObject({ name: 'ValidationException' });
    expect(eleven.message).toMatch(/less than or equal to 10/);
    expect(none.name).toBe('ValidationException');
  });

  it('refuses entries over 256 KB in total, counted as EventBridge counts them', async () => {
    // Prepare: two entries just over 262,144 bytes together (Source + DetailType + Detail bytes)
    const half = (fill: string) => entry({ fill });
    const sizeOf = (e: PutEventsRequestEntry) =>
      Buffer.byteLength(`${e.Source}${e.DetailType}${e.Detail}`, 'utf8');
    const fill = 'x'.repeat(128 * 1024 - sizeOf(half('')) + 1);

    // Act
    const refused = await failure(client.send(new PutEventsCommand({ Entries: [half(fill), half(fill)] })));
    const accepted = await client.send(
      new PutEventsCommand({ Entries: [half(fill.slice(1)), half(fill.slice(1))] }),
    );

    // Assert
    expect(refused).toMatchObject({ name: 'ValidationException' });
    expect(refused.message).toMatch(/over the limit/);
    expect(accepted.FailedEntryCount).toBe(0);
  });

  it('fails single entries: malformed detail, a missing field, an unknown bus', async () => {
    // Act
    const out = await client.send(
      new PutEventsCommand({
        Entries: [
          { ...entry(), Detail: '[1]' },
          { ...entry(), Source: undefined },
          { ...entry(), EventBusName: 'no-such-bus' },
          entry(),
        ],
      }),
    );

    // Assert
    expect(out.FailedEntryCount).toBe(3);
    expect(out.Entries?.map((e) => e.ErrorCode ?? 'ok')).toEqual([
      'MalformedDetail',
      'InvalidArgument',
      'ResourceNotFoundException',
      'ok',
    ]);
  });

  it('injected faults: whole requests fail with 500, or every entry fails with InternalFailure', async () => {
    // Prepare
    bus.failNext(1);
    bus.failNextEntries(1);

    // Act
    const down = await failure(client.send(new PutEventsCommand({ Entries: [entry()] })));
    const partial = await client.send(new PutEventsCommand({ Entries: [entry(), entry()] }));
    const fine = await client.send(new PutEventsCommand({ Entries: [entry()] }));

    // Assert
    expect(down.name).toBe('InternalException');
    expect(partial.FailedEntryCount).toBe(2);
    expect(partial.Entries?.map((e) => e.ErrorCode)).toEqual(['InternalFailure', 'InternalFailure']);
    expect(fine.FailedEntryCount).toBe(0);
  });

  it('refuses a browser request and an unsigned one', async () => {
    // Act
    const browser = await fetch(bus.endpoint, {
      method: 'POST',
      headers: { origin: 'http://evil.example', 'x-amz-target': 'AWSEvents.PutEvents' },
      body: '{}',
    });
    const unsigned = await fetch(bus.endpoint, {
      method: 'POST',
      headers: { 'x-amz-target': 'AWSEvents.PutEvents' },
      body: '{}',
    });

    // Assert
    expect(browser.status).toBe(403);
    expect(unsigned.status).toBe(403);
  });
});
