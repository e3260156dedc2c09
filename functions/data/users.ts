/**
 * The part of a user's profile the transfer loop needs (pattern 24): role and addresses.
 * The accounts capability writes the profile at sign-up; until a profile exists a signed-in
 * user counts as free (spec §6: role defaults to free).
 */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../lib/clients';
import { config } from '../lib/env';
import { isLive, keys } from './keys';

export interface SenderProfile {
  readonly userId: string;
  readonly email?: string;
  readonly fullName?: string;
  readonly role?: string;
  readonly status?: string;
  readonly parentAdminId?: string;
}

export async function getSenderProfile(userId: string): Promise<SenderProfile | undefined> {
  const out = await dynamo().send(new GetCommand({ TableName: config().tableName, Key: keys.userProfile(userId) }));
  if (!out.Item || !isLive(out.Item)) return undefined;
  const i = out.Item;
  const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
  return {
    userId,
    ...(str(i.email) ? { email: str(i.email) } : {}),
    ...(str(i.fullName) ? { fullName: str(i.fullName) } : {}),
    ...(str(i.role) ? { role: str(i.role) } : {}),
    ...(str(i.status) ? { status: str(i.status) } : {}),
    ...(str(i.parentAdminID) ? { parentAdminId: str(i.parentAdminID) } : {}),
  };
}

/** Writes the profile fields the transfer loop reads (the accounts capability owns the rest). */
export async function putSenderProfile(p: SenderProfile & { email: string }): Promise<void> {
  await dynamo().send(
    new PutCommand({
      TableName: config().tableName,
      Item: {
        ...keys.userProfile(p.userId),
        entity: 'User',
        userId: p.userId,
        email: p.email,
        ...(p.fullName ? { fullName: p.fullName } : {}),
        role: p.role ?? 'free',
        ...(p.status ? { status: p.status } : {}),
        ...(p.parentAdminId ? { parentAdminID: p.parentAdminId } : {}),
      },
    }),
  );
}
