/** Grants and limits (functions/data/download-grants.ts) against the mocked table: reservations, served bytes, completion. */
import { beforeEach, describe, expect, it } from 'vitest';
import { GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { conditionFailed, ddbMock, transactionCancelled, useUnitEnv } from '../../helpers/aws-mock';
import {
  addServed,
  completeGrant,
  reserveGrant,
  TRANSFER_SCOPE,
  type GrantRecord,
} from '../../../functions/data/download-grants';
import { keys } from '../../../functions/data/keys';

useUnitEnv();

beforeEach(() => {
  ddbMock.reset();
});

const NOW = 1_700_000_000_000;
const grant: GrantRecord = {
  deliveryId: '01928f3e-7b1c-7def-8a00-0123456789ab',
  slug: 'AbC123',
  what: 'file',
  recipient: { kind: 'link' },
  fileIds: ['f1'],
  bucket: 'b',
  key: 't/AbC123/f1',
  size: 500,
  startedAt: NOW,
  urlExpiresAt: NOW + 900_000,
  countryCode: 'XX',
  scopes: [TRANSFER_SCOPE],
  servedBytes: 0,
};

const limitItem = (over: Record<string, unknown>) => ({
  ...keys.downloadLimit('AbC123', TRANSFER_SCOPE),
  slug: 'AbC123',
  scope: TRANSFER_SCOPE,
  limit: 3,
  completed: 0,
  held: {},
  version: 1,
  ...over,
});

describe('reserveGrant', () => {
  it('writes the grant alone when the transfer has no limit', async () => {
    ddbMock.on(GetCommand).resolves({});
    ddbMock.on(TransactWriteCommand).resolves({});
    expect(await reserveGrant(grant, NOW + 1, NOW)).toEqual({ ok: true });
    const items = ddbMock.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems!;
    expect(items).toHaveLength(1);
    expect(items[0]!.Put!.Item).toMatchObject({ ...keys.downloadGrant(grant.deliveryId), servedBytes: 0 });
  });

  it('holds a slot on the version read, and drops lapsed reservations in the same write', async () => {
    ddbMock
      .on(GetCommand)
      .resolves({ Item: limitItem({ completed: 1, held: { old: NOW - 1, live: NOW + 5 }, version: 7 }) });
    ddbMock.on(TransactWriteCommand).resolves({});
    expect(await reserveGrant(grant, NOW + 1_000, NOW)).toEqual({ ok: true });
    const update = ddbMock.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems![1]!.Update!;
    expect(update.ConditionExpression).toBe('version = :v');
    expect(update.ExpressionAttributeValues).toMatchObject({ ':v': 7, ':next': 8, ':until': NOW + 1_000 });
    expect(update.UpdateExpression).toContain('REMOVE held.#l0');
    expect(update.ExpressionAttributeNames).toMatchObject({ '#d': grant.deliveryId, '#l0': 'old' });
  });

  it('refuses without writing when completions and live reservations fill the limit', async () => {
    ddbMock.on(GetCommand).resolves({ Item: limitItem({ completed: 2, held: { live: NOW + 5 } }) });
    expect(await reserveGrant(grant, NOW + 1, NOW)).toEqual({ ok: false, scope: TRANSFER_SCOPE });
    expect(ddbMock.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  it('reads again after losing a race, and then decides on what it reads', async () => {
    ddbMock
      .on(GetCommand)
      .resolvesOnce({ Item: limitItem({ completed: 2, version: 1 }) })
      .resolves({ Item: limitItem({ completed: 2, held: { other: NOW + 5 }, version: 2 }) });
    ddbMock.on(TransactWriteCommand).rejects(transactionCancelled(['ok', 'ConditionalCheckFailed']));
    expect(await reserveGrant(grant, NOW + 1, NOW)).toEqual({ ok: false, scope: TRANSFER_SCOPE });
    expect(ddbMock.commandCalls(TransactWriteCommand)).toHaveLength(1);
  });
});

describe('served bytes and completion', () => {
  it('adds an event’s bytes once: a repeated event id answers null', async () => {
    ddbMock.on(UpdateCommand).resolvesOnce({ Attributes: { ...grant, servedBytes: 250, eventIds: new Set(['e1']) } });
    expect(await addServed(grant.deliveryId, 'e1', 250)).toMatchObject({ servedBytes: 250 });
    const input = ddbMock.commandCalls(UpdateCommand)[0]!.args[0].input;
    expect(input.ConditionExpression).toContain('NOT contains(eventIds, :e)');
    expect(input.ConditionExpression).toContain('attribute_not_exists(completedAt)');
    ddbMock.on(UpdateCommand).rejects(conditionFailed());
    expect(await addServed(grant.deliveryId, 'e1', 250)).toBeNull();
  });

  it('completes once, counting against the limits and releasing the reservation', async () => {
    ddbMock.on(GetCommand).resolves({ Item: limitItem({ held: { [grant.deliveryId]: NOW + 5 } }) });
    ddbMock.on(TransactWriteCommand).resolvesOnce({});
    expect(await completeGrant(grant, NOW)).toBe(true);
    const items = ddbMock.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems!;
    expect(items[1]!.Update!.UpdateExpression).toBe('REMOVE held.#d ADD completed :one, version :one');
    ddbMock.on(TransactWriteCommand).rejects(transactionCancelled(['ConditionalCheckFailed', 'ok']));
    expect(await completeGrant(grant, NOW)).toBe(false);
  });
});
