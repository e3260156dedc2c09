import { beforeEach, describe, expect, it } from 'vitest';
import { DeleteCommand, GetCommand, PutCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { conditionFailed, ddbMock, throttled, transactionCancelled, useUnitEnv } from '../../helpers/aws-mock';
import {
  acceptInvite,
  createInvite,
  hasLiveInvite,
  inviteByToken,
  isOnTeam,
  moveTransfers,
  putShares,
  readTeam,
  removeMember,
  revokeInvite,
  rotateInvite,
  sharedItems,
  sharedSlugs,
  type InviteRecord,
} from '../../../functions/data/teams';
import { keys } from '../../../functions/data/keys';
import type { UserProfile } from '../../../functions/data/users';

useUnitEnv();

beforeEach(() => {
  ddbMock.reset();
});

const NOW = 1_700_000_000_000;
const inv: InviteRecord = {
  adminId: 'adm',
  inviteId: 'i1',
  email: 'm@example.com',
  tokenHash: 'tok',
  sentAt: NOW,
  expiresAt: NOW + 7 * 86_400_000,
};

describe('createInvite', () => {
  it('takes a seat under the limit, claims the address, checks it has no account and stores the link, in one transaction', async () => {
    ddbMock.on(TransactWriteCommand).resolves({});
    expect(await createInvite(inv, 5, NOW)).toBeNull();
    const items = ddbMock.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems!;
    expect(items[0]!.Update).toMatchObject({
      Key: keys.teamSeats('adm'),
      ConditionExpression: 'attribute_not_exists(used) OR used < :limit',
      ExpressionAttributeValues: { ':limit': 5 },
    });
    expect(items[1]!.Put).toMatchObject({
      Item: keys.invitedEmail('m@example.com'),
      ConditionExpression: 'attribute_not_exists(pk) OR expiresAt < :now',
      ExpressionAttributeValues: { ':now': NOW },
    });
    expect(items[2]!.ConditionCheck).toMatchObject({
      Key: keys.userEmail('m@example.com'),
      ConditionExpression: 'attribute_not_exists(pk)',
    });
    // the link's item outlives the link by a day (410 rather than 404)
    expect(items[4]!.Put!.Item).toMatchObject({
      ...keys.inviteToken('tok'),
      ttl: Math.floor(NOW / 1000) + 7 * 86_400 + 86_400,
    });
  });

  it('names the failed condition: team_full, email_invited, email_taken', async () => {
    ddbMock
      .on(TransactWriteCommand)
      .rejectsOnce(transactionCancelled(['ConditionalCheckFailed', 'ok', 'ok', 'ok', 'ok']))
      .rejectsOnce(transactionCancelled(['ok', 'ConditionalCheckFailed', 'ok', 'ok', 'ok']))
      .rejectsOnce(transactionCancelled(['ok', 'ok', 'ConditionalCheckFailed', 'ok', 'ok']))
      .rejectsOnce(throttled());
    expect(await createInvite(inv, 5, NOW)).toBe('team_full');
    expect(await createInvite(inv, 5, NOW)).toBe('email_invited');
    expect(await createInvite(inv, 5, NOW)).toBe('email_taken');
    await expect(createInvite(inv, 5, NOW)).rejects.toMatchObject({ name: 'ProvisionedThroughputExceededException' });
  });
});

describe('readTeam', () => {
  it('splits the team partition (every page) into seats, invites and members, oldest first', async () => {
    ddbMock
      .on(QueryCommand)
      .resolvesOnce({
        Items: [
          { sk: 'SEATS', used: 2 },
          { sk: `${keys.teamInvitePrefix}b`, ...inv, inviteId: 'b', sentAt: 2 },
        ],
        LastEvaluatedKey: { pk: 'x' },
      })
      .resolvesOnce({
        Items: [
          { sk: `${keys.teamInvitePrefix}a`, ...inv, inviteId: 'a', sentAt: 1 },
          { sk: `${keys.teamMemberPrefix}u`, adminId: 'adm', memberId: 'u', email: 'u@example.com', joinedAt: 3 },
        ],
      });
    const team = await readTeam('adm');
    expect(team.used).toBe(2);
    expect(team.invites.map((i) => i.inviteId)).toEqual(['a', 'b']);
    expect(team.members).toEqual([{ adminId: 'adm', memberId: 'u', email: 'u@example.com', joinedAt: 3 }]);
    expect(ddbMock.commandCalls(QueryCommand)[0]!.args[0].input).toMatchObject({
      ExpressionAttributeValues: { ':pk': keys.teamPartition('adm') },
      ConsistentRead: true,
    });
  });
});

describe('invite links', () => {
  it('a link past its ttl and an address whose invite expired read as absent', async () => {
    ddbMock
      .on(GetCommand)
      .resolvesOnce({
        Item: {
          adminId: 'adm',
          inviteId: 'i1',
          email: 'm@example.com',
          expiresAt: NOW,
          ttl: Math.floor(NOW / 1000) - 1,
        },
      })
      .resolvesOnce({ Item: { expiresAt: NOW - 1 } });
    expect(await inviteByToken('tok', NOW)).toBeUndefined();
    expect(await hasLiveInvite('m@example.com', NOW)).toBe(false);
  });

  it('rotating conditions on the old token; false once the invite is gone', async () => {
    ddbMock.on(TransactWriteCommand).rejects(transactionCancelled(['ConditionalCheckFailed', 'ok', 'ok', 'ok']));
    expect(await rotateInvite(inv, { tokenHash: 'new', sentAt: NOW + 1, expiresAt: NOW + 2 }, NOW)).toBe(false);
    const items = ddbMock.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems!;
    expect(items[0]!.Update!.ExpressionAttributeValues).toMatchObject({ ':old': 'tok', ':h': 'new' });
    expect(items[1]!.Delete!.Key).toEqual(keys.inviteToken('tok'));
    expect(items[2]!.Put!.Item).toMatchObject(keys.inviteToken('new'));
  });
});

describe('revokeInvite', () => {
  it("gives the seat back and releases the address only if it is still this invite's", async () => {
    ddbMock.on(TransactWriteCommand).resolves({});
    ddbMock.on(DeleteCommand).rejects(conditionFailed());
    expect(await revokeInvite(inv)).toBe(true);
    expect(
      ddbMock.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems![2]!.Update!.ExpressionAttributeValues,
    ).toEqual({ ':d': -1 });
    expect(ddbMock.commandCalls(DeleteCommand)[0]!.args[0].input).toMatchObject({
      Key: keys.invitedEmail('m@example.com'),
      ConditionExpression: 'inviteId = :i',
      ExpressionAttributeValues: { ':i': 'i1' },
    });
  });

  it('an invite already gone: false, and the address claim is left alone', async () => {
    ddbMock.on(TransactWriteCommand).rejects(transactionCancelled(['ConditionalCheckFailed', 'ok', 'ok']));
    expect(await revokeInvite(inv)).toBe(false);
    expect(ddbMock.commandCalls(DeleteCommand)).toHaveLength(0);
  });
});

describe('acceptInvite', () => {
  const profile = { userId: 'u9', email: 'm@example.com' } as UserProfile;
  it('maps the failed item: an account meanwhile is email_taken, a consumed invite or link is used', async () => {
    ddbMock
      .on(TransactWriteCommand)
      .rejectsOnce(transactionCancelled(['ConditionalCheckFailed', 'ok', 'ok', 'ok', 'ok']))
      .rejectsOnce(transactionCancelled(['ok', 'ok', 'ok', 'ConditionalCheckFailed', 'ok']))
      .resolvesOnce({});
    ddbMock.on(DeleteCommand).resolves({});
    expect(await acceptInvite(inv, profile, NOW)).toBe('email_taken');
    expect(await acceptInvite(inv, profile, NOW)).toBe('used');
    expect(await acceptInvite(inv, profile, NOW)).toBeNull();
    const items = ddbMock.commandCalls(TransactWriteCommand)[2]!.args[0].input.TransactItems!;
    expect(items[2]!.Delete).toMatchObject({
      Key: keys.teamInvite('adm', 'i1'),
      ConditionExpression: 'tokenHash = :h',
    });
    expect(items[4]!.Put!.Item).toMatchObject({ ...keys.teamMember('adm', 'u9'), joinedAt: NOW });
    // the address claim goes after a successful accept only
    expect(ddbMock.commandCalls(DeleteCommand)).toHaveLength(1);
  });
});

describe('removeMember', () => {
  it("detaches the profile only if it is this admin's member", async () => {
    ddbMock.on(QueryCommand).resolves({ Items: [] });
    ddbMock.on(TransactWriteCommand).rejects(transactionCancelled(['ok', 'ok', 'ConditionalCheckFailed']));
    expect(await removeMember('adm', 'u9')).toBe(false);
    expect(ddbMock.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems![2]!.Update).toMatchObject({
      Key: keys.userProfile('u9'),
      ConditionExpression: 'parentAdminID = :a',
      ExpressionAttributeValues: { ':a': 'adm', ':free': 'free' },
    });
    expect(ddbMock.commandCalls(DeleteCommand)).toHaveLength(0);
  });

  it("withdraws the shares to the member in the membership's transaction, up to its 100 items, the rest (and late ones) right after", async () => {
    const share = (n: number) => ({ ...keys.transferShare(`s${n}`, 'u9') });
    const all = Array.from({ length: 120 }, (_, n) => share(n));
    ddbMock
      .on(QueryCommand)
      .resolvesOnce({ Items: all })
      .resolvesOnce({ Items: all.slice(97) });
    ddbMock.on(TransactWriteCommand).resolves({});
    ddbMock.on(DeleteCommand).resolves({});
    expect(await removeMember('adm', 'u9')).toBe(true);
    const items = ddbMock.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems!;
    expect(items).toHaveLength(100);
    expect(items[0]!.Delete).toMatchObject({ Key: keys.teamMember('adm', 'u9') });
    expect(items.slice(3).map((i) => i.Delete!.Key)).toEqual(all.slice(0, 97));
    expect(ddbMock.commandCalls(QueryCommand)[0]!.args[0].input).toMatchObject({
      IndexName: 'gsi1',
      ExpressionAttributeValues: { ':pk': keys.sharedWithPartition('u9') },
    });
    expect(ddbMock.commandCalls(DeleteCommand).map((c) => c.args[0].input.Key)).toEqual(all.slice(97));
  });
});

describe('isOnTeam', () => {
  it('is the admin, or a member whose item exists (read consistently)', async () => {
    ddbMock
      .on(GetCommand, { Key: keys.teamMember('adm', 'u1') })
      .resolves({ Item: { adminId: 'adm', memberId: 'u1' } });
    ddbMock.on(GetCommand, { Key: keys.teamMember('adm', 'u2') }).resolves({});
    expect(await isOnTeam('adm', 'adm')).toBe(true);
    expect(await isOnTeam('adm', 'u1')).toBe(true);
    expect(await isOnTeam('adm', 'u2')).toBe(false);
    expect(ddbMock.commandCalls(GetCommand).every((c) => c.args[0].input.ConsistentRead === true)).toBe(true);
  });
});

describe('sharing', () => {
  it('writes one share per distinct team mate, naming the team', async () => {
    ddbMock.on(PutCommand).resolves({});
    await putShares({ slug: 's1', createdAt: NOW, senderId: 'adm' }, 'adm', ['a', 'b', 'a'], NOW);
    expect(
      ddbMock.commandCalls(PutCommand).map((c) => [c.args[0].input.Item!.userId, c.args[0].input.Item!.teamId]),
    ).toEqual([
      ['a', 'adm'],
      ['b', 'adm'],
    ]);
  });

  it('lists shared slugs newest first across pages, and the items with their teams over every page', async () => {
    ddbMock
      .on(QueryCommand, { ProjectionExpression: 'slug, teamId' })
      .resolvesOnce({ Items: [{ slug: 'c', teamId: 'adm' }], LastEvaluatedKey: { pk: 'x' } })
      .resolvesOnce({ Items: [{ slug: 'd' }] });
    ddbMock
      .on(QueryCommand, { ScanIndexForward: false })
      .resolvesOnce({ Items: [{ slug: 'b' }], LastEvaluatedKey: { pk: 'x' } })
      .resolvesOnce({ Items: [{ slug: 'a' }] });
    const slugs: string[] = [];
    for await (const s of sharedSlugs('u1', 1)) slugs.push(s);
    expect(slugs).toEqual(['b', 'a']);
    expect(await sharedItems('u1')).toEqual([{ slug: 'c', teamId: 'adm' }, { slug: 'd' }]);
  });
});

describe('moveTransfers', () => {
  it("moves each of the member's transfers still theirs to the admin, then the counters", async () => {
    ddbMock.on(QueryCommand).resolves({
      Items: [
        { pk: 'TRANSFER#s1', sk: 'META', slug: 's1', gsi3pk: 'LIST#mem#LIVE' },
        { pk: 'TRANSFER#s2', sk: 'META', slug: 's2' },
      ],
    });
    ddbMock
      .on(TransactWriteCommand)
      .resolvesOnce({})
      .rejectsOnce(transactionCancelled(['ConditionalCheckFailed']))
      .resolves({});
    ddbMock.on(GetCommand).resolves({ Item: { all: 4, expired: 1 } });
    expect(await moveTransfers('mem', 'adm')).toEqual(['s1']);
    const first = ddbMock.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems![0]!.Update!;
    expect(first.ConditionExpression).toBe('senderId = :m');
    expect(Object.values(first.ExpressionAttributeValues!)).toEqual(expect.arrayContaining(['adm', 'LIST#adm#LIVE']));
    const counters = ddbMock.commandCalls(TransactWriteCommand)[2]!.args[0].input.TransactItems!;
    expect(counters[0]!.Update).toMatchObject({
      Key: keys.transferStats('adm'),
      ExpressionAttributeValues: { ':a': 4, ':x': 1 },
    });
    expect(counters[1]!.Update).toMatchObject({
      Key: keys.transferStats('mem'),
      ExpressionAttributeValues: { ':z': 0 },
    });
  });
});
