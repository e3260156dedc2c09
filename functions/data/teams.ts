/**
 * Teams and sharing in the single table (docs/data-model.md patterns T1-T9): the
 * admin's `TEAM#<adminId>` partition (seat counter, pending invites, members), the invite
 * link by its token's hash, one live invite per address, and one share item per team mate a
 * transfer is shared with (gsi1 `SHARED#<userId>`, so the shared list is a Query).
 */
import { ddb } from '../lib/clients/dynamodb';
import { MAX_TRANSACT_ITEMS, conditionalWrite, queryAll, table, transact, transactOr, type TransactItem } from './base';
import { isLive, keys, ttlIn } from './keys';
import type { TransferRecord } from './transfers';
import { profileItem, type UserProfile } from './users';

export interface InviteRecord {
  readonly adminId: string;
  readonly inviteId: string;
  readonly email: string;
  readonly tokenHash: string;
  readonly sentAt: number;
  readonly expiresAt: number;
}

export interface MemberRecord {
  readonly adminId: string;
  readonly memberId: string;
  readonly email: string;
  readonly joinedAt: number;
}

export type InviteFailure = 'team_full' | 'email_invited' | 'email_taken';

function inviteOf(i: Record<string, unknown>): InviteRecord {
  return {
    adminId: String(i.adminId),
    inviteId: String(i.inviteId),
    email: String(i.email),
    tokenHash: String(i.tokenHash),
    sentAt: Number(i.sentAt),
    expiresAt: Number(i.expiresAt),
  };
}

function memberOf(i: Record<string, unknown>): MemberRecord {
  return {
    adminId: String(i.adminId),
    memberId: String(i.memberId),
    email: String(i.email),
    joinedAt: Number(i.joinedAt),
  };
}

/** The token item lives a day past the link's end, so an expired link answers 410 rather than 404 for a while. */
const tokenItem = (inv: InviteRecord, now: number) => ({
  ...keys.inviteToken(inv.tokenHash),
  entity: 'TeamInviteToken',
  adminId: inv.adminId,
  inviteId: inv.inviteId,
  email: inv.email,
  expiresAt: inv.expiresAt,
  ttl: ttlIn((inv.expiresAt - now) / 1000 + 86_400, now),
});

const emailClaim = (inv: InviteRecord): Record<string, unknown> => ({
  ...keys.invitedEmail(inv.email),
  entity: 'TeamInvitedEmail',
  adminId: inv.adminId,
  inviteId: inv.inviteId,
  expiresAt: inv.expiresAt,
});

/**
 * Pattern T1: a new invite takes a seat under `used < limit` (so parallel invites never pass
 * the plan's size), claims the address (no live invite elsewhere, no account) and stores the link.
 */
export async function createInvite(inv: InviteRecord, limit: number, now: number): Promise<InviteFailure | null> {
  return transactOr(
    [
      {
        Update: {
          TableName: table(),
          Key: keys.teamSeats(inv.adminId),
          UpdateExpression: 'SET entity = :e ADD used :one',
          ConditionExpression: 'attribute_not_exists(used) OR used < :limit',
          ExpressionAttributeValues: { ':e': 'TeamSeats', ':one': 1, ':limit': limit },
        },
      },
      {
        Put: {
          TableName: table(),
          Item: emailClaim(inv),
          ConditionExpression: 'attribute_not_exists(pk) OR expiresAt < :now',
          ExpressionAttributeValues: { ':now': now },
        },
      },
      {
        ConditionCheck: {
          TableName: table(),
          Key: keys.userEmail(inv.email),
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      {
        Put: {
          TableName: table(),
          Item: { ...keys.teamInvite(inv.adminId, inv.inviteId), entity: 'TeamInvite', ...inv },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      { Put: { TableName: table(), Item: tokenItem(inv, now) } },
    ],
    ['team_full', 'email_invited', 'email_taken'] as const,
  );
}

/** Pattern T2: the admin's team partition: seats, invites, members. */
export async function readTeam(
  adminId: string,
): Promise<{ used: number; invites: InviteRecord[]; members: MemberRecord[] }> {
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': keys.teamPartition(adminId) },
    ConsistentRead: true,
  });
  const sk = (i: Record<string, unknown>) => String(i.sk);
  return {
    used: Number(items.find((i) => sk(i) === 'SEATS')?.used ?? 0),
    invites: items
      .filter((i) => sk(i).startsWith(keys.teamInvitePrefix))
      .map(inviteOf)
      .sort((a, b) => a.sentAt - b.sentAt),
    members: items
      .filter((i) => sk(i).startsWith(keys.teamMemberPrefix))
      .map(memberOf)
      .sort((a, b) => a.joinedAt - b.joinedAt),
  };
}

export async function getInvite(adminId: string, inviteId: string): Promise<InviteRecord | undefined> {
  const out = await ddb().get({ TableName: table(), Key: keys.teamInvite(adminId, inviteId), ConsistentRead: true });
  return out.Item ? inviteOf(out.Item) : undefined;
}

export async function getMember(adminId: string, memberId: string): Promise<MemberRecord | undefined> {
  const out = await ddb().get({ TableName: table(), Key: keys.teamMember(adminId, memberId), ConsistentRead: true });
  return out.Item ? memberOf(out.Item) : undefined;
}

/** Pattern T3b: whether an address waits on a live invite (registration answers 409 email_invited). */
export async function hasLiveInvite(email: string, now = Date.now()): Promise<boolean> {
  const out = await ddb().get({ TableName: table(), Key: keys.invitedEmail(email), ConsistentRead: true });
  return typeof out.Item?.expiresAt === 'number' && out.Item.expiresAt > now;
}

/** Pattern T3: the invite behind a link (the token's hash). */
export async function inviteByToken(
  tokenHash: string,
  now = Date.now(),
): Promise<{ adminId: string; inviteId: string; email: string; expiresAt: number } | undefined> {
  const out = await ddb().get({ TableName: table(), Key: keys.inviteToken(tokenHash), ConsistentRead: true });
  if (!out.Item || !isLive(out.Item, now)) return undefined;
  return {
    adminId: String(out.Item.adminId),
    inviteId: String(out.Item.inviteId),
    email: String(out.Item.email),
    expiresAt: Number(out.Item.expiresAt),
  };
}

/** Pattern T4: resend: a new link and a new week; the old link stops working in the same write. False if the invite is gone. */
export async function rotateInvite(
  old: InviteRecord,
  next: { tokenHash: string; sentAt: number; expiresAt: number },
  now: number,
): Promise<boolean> {
  const inv: InviteRecord = { ...old, ...next };
  return transact([
    {
      Update: {
        TableName: table(),
        Key: keys.teamInvite(old.adminId, old.inviteId),
        UpdateExpression: 'SET tokenHash = :h, sentAt = :s, expiresAt = :x',
        ConditionExpression: 'attribute_exists(pk) AND tokenHash = :old',
        ExpressionAttributeValues: {
          ':h': next.tokenHash,
          ':s': next.sentAt,
          ':x': next.expiresAt,
          ':old': old.tokenHash,
        },
      },
    },
    { Delete: { TableName: table(), Key: keys.inviteToken(old.tokenHash) } },
    { Put: { TableName: table(), Item: tokenItem(inv, now) } },
    // The address stays this team's (another team may have claimed it after this invite expired: then no resend).
    {
      Put: {
        TableName: table(),
        Item: emailClaim(inv),
        ConditionExpression: 'attribute_not_exists(pk) OR adminId = :a OR expiresAt < :now',
        ExpressionAttributeValues: { ':a': old.adminId, ':now': now },
      },
    },
  ]);
}

/** Releases the address claim if it is still this invite's. */
async function releaseEmailClaim(inv: Pick<InviteRecord, 'email' | 'inviteId'>): Promise<void> {
  await conditionalWrite(() =>
    ddb().delete({
      TableName: table(),
      Key: keys.invitedEmail(inv.email),
      ConditionExpression: 'inviteId = :i',
      ExpressionAttributeValues: { ':i': inv.inviteId },
    }),
  );
}

/** Pattern T5: revoke: the invite and its link go, the seat comes back. False if it was already gone. */
export async function revokeInvite(inv: InviteRecord): Promise<boolean> {
  const done = await transact([
    {
      Delete: {
        TableName: table(),
        Key: keys.teamInvite(inv.adminId, inv.inviteId),
        ConditionExpression: 'attribute_exists(pk)',
      },
    },
    { Delete: { TableName: table(), Key: keys.inviteToken(inv.tokenHash) } },
    seatDelta(inv.adminId, -1),
  ]);
  if (done) await releaseEmailClaim(inv);
  return done;
}

function seatDelta(adminId: string, delta: number): TransactItem {
  return {
    Update: {
      TableName: table(),
      Key: keys.teamSeats(adminId),
      UpdateExpression: 'ADD used :d',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':d': delta },
    },
  };
}

/**
 * Pattern T6: accept: the member's profile and address claim, the member item, and the invite
 * and its link consumed, in one transaction (the link works once; the seat passes from the
 * invite to the member). 'email_taken' when the address got an account meanwhile, 'used' when
 * the invite or its link is gone.
 */
export async function acceptInvite(
  inv: InviteRecord,
  profile: UserProfile,
  now: number,
): Promise<'email_taken' | 'used' | null> {
  const refused = await transactOr(
    [
      {
        Put: {
          TableName: table(),
          Item: { ...keys.userEmail(profile.email), entity: 'UserEmail', userId: profile.userId },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      { Put: { TableName: table(), Item: profileItem(profile), ConditionExpression: 'attribute_not_exists(pk)' } },
      {
        Delete: {
          TableName: table(),
          Key: keys.teamInvite(inv.adminId, inv.inviteId),
          ConditionExpression: 'tokenHash = :h',
          ExpressionAttributeValues: { ':h': inv.tokenHash },
        },
      },
      {
        Delete: {
          TableName: table(),
          Key: keys.inviteToken(inv.tokenHash),
          ConditionExpression: 'attribute_exists(pk)',
        },
      },
      {
        Put: {
          TableName: table(),
          Item: {
            ...keys.teamMember(inv.adminId, profile.userId),
            entity: 'TeamMember',
            adminId: inv.adminId,
            memberId: profile.userId,
            email: profile.email,
            joinedAt: now,
          },
        },
      },
    ],
    ['email_taken', 'email_taken', 'used', 'used'] as const,
  );
  if (refused) return refused;
  await releaseEmailClaim(inv);
  return null;
}

/**
 * Pattern T7: remove a member: the member item goes, the seat comes back, the profile is
 * detached (a free account of its own) and the transfers shared with the member are withdrawn,
 * in one transaction (as many shares as fit; the rest, and any share written meanwhile, right
 * after). Readers re-check membership anyway (`isOnTeam`), so a leftover share opens nothing.
 * False if not this admin's member.
 */
export async function removeMember(adminId: string, memberId: string): Promise<boolean> {
  const shares = await shareKeysOf(memberId);
  const membership: TransactItem[] = [
    {
      Delete: {
        TableName: table(),
        Key: keys.teamMember(adminId, memberId),
        ConditionExpression: 'attribute_exists(pk)',
      },
    },
    seatDelta(adminId, -1),
    {
      Update: {
        TableName: table(),
        Key: keys.userProfile(memberId),
        UpdateExpression: 'SET isTeamMember = :f, #role = :free REMOVE parentAdminID',
        ConditionExpression: 'parentAdminID = :a',
        ExpressionAttributeNames: { '#role': 'role' },
        ExpressionAttributeValues: { ':f': false, ':free': 'free', ':a': adminId },
      },
    },
  ];
  const inline = shares.slice(0, MAX_TRANSACT_ITEMS - membership.length);
  if (
    !(await transact([...membership, ...inline.map((Key): TransactItem => ({ Delete: { TableName: table(), Key } }))]))
  )
    return false;
  await withdrawSharesTo(memberId);
  return true;
}

/**
 * Whether `userId` is in `adminId`'s team now: the admin, or a member whose member item
 * exists (read consistently: the item goes in the same transaction as the membership).
 */
export async function isOnTeam(adminId: string, userId: string): Promise<boolean> {
  if (adminId === userId) return true;
  return (await getMember(adminId, userId)) !== undefined;
}

// ---- sharing ------------------------------------------------------------------------------------

/**
 * Pattern T8: one item per team mate a sent transfer is shared with (written once, at the
 * send). `teamId` is the team's admin, whose storage the transfer uses: a share counts only
 * while its reader is on that team.
 */
export async function putShares(
  t: Pick<TransferRecord, 'slug' | 'createdAt' | 'senderId'>,
  teamId: string,
  userIds: readonly string[],
  now: number,
): Promise<void> {
  for (const userId of new Set(userIds)) {
    await ddb().put({
      TableName: table(),
      Item: {
        ...keys.transferShare(t.slug, userId),
        ...keys.sharedWith(userId, t.createdAt, t.slug),
        entity: 'TransferShare',
        slug: t.slug,
        userId,
        senderId: t.senderId,
        teamId,
        sharedAt: now,
      },
    });
  }
}

export async function isSharedWith(slug: string, userId: string): Promise<boolean> {
  const out = await ddb().get({ TableName: table(), Key: keys.transferShare(slug, userId), ConsistentRead: true });
  return !!out.Item;
}

/** Pattern T9: the slugs shared with a user, newest first (a Query on gsi1). */
export async function* sharedSlugs(userId: string, pageSize: number): AsyncGenerator<string> {
  let start: Record<string, unknown> | undefined;
  do {
    const out = await ddb().query({
      TableName: table(),
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.sharedWithPartition(userId) },
      ScanIndexForward: false,
      Limit: pageSize,
      ExclusiveStartKey: start,
    });
    for (const item of out.Items ?? []) yield String(item.slug);
    start = out.LastEvaluatedKey;
  } while (start);
}

/**
 * The share items of a user's shared list: the slug and the team each was shared in (items
 * written before shares named their team carry none; the caller then asks the transfer).
 */
export async function sharedItems(userId: string): Promise<{ slug: string; teamId?: string }[]> {
  const items = await queryAll({
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk',
    ExpressionAttributeValues: { ':pk': keys.sharedWithPartition(userId) },
    ProjectionExpression: 'slug, teamId',
  });
  return items.map((i) => ({ slug: String(i.slug), ...(typeof i.teamId === 'string' ? { teamId: i.teamId } : {}) }));
}

/** The keys of every share item naming `userId` as its reader. */
async function shareKeysOf(userId: string): Promise<{ pk: string; sk: string }[]> {
  const items = await queryAll({
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk',
    ExpressionAttributeValues: { ':pk': keys.sharedWithPartition(userId) },
    ProjectionExpression: 'pk, sk',
  });
  return items.map((i) => ({ pk: String(i.pk), sk: String(i.sk) }));
}

/** Withdraws every transfer shared with `userId` (their shared list ends empty). */
export async function withdrawSharesTo(userId: string): Promise<number> {
  const found = await shareKeysOf(userId);
  for (const Key of found) await ddb().delete({ TableName: table(), Key });
  return found.length;
}

/** A deleted transfer leaves every shared list (its share items live in its own partition). */
export async function deleteShares(slug: string): Promise<void> {
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :s)',
    ExpressionAttributeValues: { ':pk': keys.transfer(slug).pk, ':s': keys.transferSharePrefix },
    ProjectionExpression: 'pk, sk',
  });
  for (const i of items) await ddb().delete({ TableName: table(), Key: { pk: i.pk, sk: i.sk } });
}

export async function deleteShare(slug: string, userId: string): Promise<void> {
  await ddb().delete({ TableName: table(), Key: keys.transferShare(slug, userId) });
}

/**
 * A removed member's sent transfers pass to the admin: sender and list-index partitions move
 * from the member to the admin (the storage was the admin's already); the counters follow.
 */
export async function moveTransfers(memberId: string, adminId: string): Promise<string[]> {
  const items = await queryAll({
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk',
    ExpressionAttributeValues: { ':pk': keys.userTransfersPartition(memberId) },
  });
  const moved: string[] = [];
  const swap = (v: unknown) => (typeof v === 'string' ? v.replace(`#${memberId}`, `#${adminId}`) : undefined);
  for (const i of items) {
    const sets: Record<string, unknown> = { senderId: adminId, gsi1pk: keys.userTransfersPartition(adminId) };
    if (typeof i.gsi3pk === 'string') sets.gsi3pk = swap(i.gsi3pk);
    if (typeof i.gsi4pk === 'string') sets.gsi4pk = swap(i.gsi4pk);
    const names = Object.keys(sets);
    const ok = await transact([
      {
        Update: {
          TableName: table(),
          Key: { pk: i.pk, sk: i.sk },
          UpdateExpression: `SET ${names.map((_, k) => `#a${k} = :v${k}`).join(', ')}`,
          ConditionExpression: 'senderId = :m',
          ExpressionAttributeNames: Object.fromEntries(names.map((n, k) => [`#a${k}`, n])),
          ExpressionAttributeValues: {
            ':m': memberId,
            ...Object.fromEntries(names.map((n, k) => [`:v${k}`, sets[n]])),
          },
        },
      },
    ]);
    if (ok) moved.push(String(i.slug));
  }
  if (moved.length > 0) {
    const stats = await ddb().get({ TableName: table(), Key: keys.transferStats(memberId), ConsistentRead: true });
    const all = Number(stats.Item?.all ?? 0);
    const expired = Number(stats.Item?.expired ?? 0);
    await transact([
      {
        Update: {
          TableName: table(),
          Key: keys.transferStats(adminId),
          UpdateExpression: 'SET entity = :e ADD #all :a, expired :x',
          ExpressionAttributeNames: { '#all': 'all' },
          ExpressionAttributeValues: { ':e': 'TransferStats', ':a': all, ':x': expired },
        },
      },
      {
        Update: {
          TableName: table(),
          Key: keys.transferStats(memberId),
          UpdateExpression: 'SET #all = :z, expired = :z',
          ExpressionAttributeNames: { '#all': 'all' },
          ExpressionAttributeValues: { ':z': 0 },
        },
      },
    ]);
  }
  return moved;
}
