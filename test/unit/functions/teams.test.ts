import { describe, expect, it } from 'vitest';
import {
  acceptInviteSchema,
  createInviteSchema,
  inviteIdParamsSchema,
  inviteTokenParamsSchema,
  memberIdParamsSchema,
} from '../../../functions/domain/teams-api';
import { limitsFor } from '../../../functions/domain/plans';
import { managesTransfer, teamOfTransfer } from '../../../functions/services/sharing';

/** The pure rules: who manages a transfer, the seats per plan, and what the teams routes accept. */
describe('managesTransfer', () => {
  it('the sender, and the team admin of a member (the storage owner that is not the sender)', () => {
    expect(managesTransfer({ senderId: 'member', storageOwner: 'admin' }, 'member')).toBe(true);
    expect(managesTransfer({ senderId: 'member', storageOwner: 'admin' }, 'admin')).toBe(true);
    expect(managesTransfer({ senderId: 'member', storageOwner: 'admin' }, 'mate')).toBe(false);
  });

  it("never a file request's requester, nor anyone for a guest's transfer", () => {
    expect(managesTransfer({ storageOwner: 'requester', requestId: 'Abcd1234' }, 'requester')).toBe(false);
    expect(managesTransfer({ senderId: 'x', storageOwner: 'requester', requestId: 'Abcd1234' }, 'requester')).toBe(
      false,
    );
    expect(managesTransfer({ storageOwner: 'guest:a@example.com' }, 'guest:a@example.com')).toBe(false);
  });
});

describe('teamOfTransfer', () => {
  it("a signed-in send belongs to the team whose storage it uses: the admin's for a member's send, the sender's own otherwise", () => {
    expect(teamOfTransfer({ senderId: 'member', storageOwner: 'admin' })).toBe('admin');
    expect(teamOfTransfer({ senderId: 'admin', storageOwner: 'admin' })).toBe('admin');
    expect(teamOfTransfer({ senderId: 'solo' })).toBe('solo');
  });

  it("no team for a guest's send or a file request's upload (never shared)", () => {
    expect(teamOfTransfer({ storageOwner: 'guest:a@example.com' })).toBeUndefined();
    expect(teamOfTransfer({ senderId: 'x', storageOwner: 'requester', requestId: 'Abcd1234' })).toBeUndefined();
  });
});

describe('team sizes (spec §9)', () => {
  it.each([
    ['free', 0],
    ['anon', 0],
    ['personal', 1],
    ['pro', 2],
    ['business', 5],
    ['businessplus', 10],
    ['businesselite', 20],
    ['team', 25],
    ['teamplus', 30],
    ['teamelite', 50],
  ])('%s: %i', (role, seats) => expect(limitsFor(role).teamLimit).toBe(seats));
});

describe('teams schemas', () => {
  const token = 'A'.repeat(43);
  it('accept binds a token, the address, a name and a sign-up password', () => {
    expect(
      acceptInviteSchema.safeParse({ token, newMemberEmail: 'Ann@Example.com', fullName: ' Ann ', password: 'secret1' })
        .data,
    ).toMatchObject({ newMemberEmail: 'ann@example.com', fullName: 'Ann' });
    expect(
      acceptInviteSchema.safeParse({ token, newMemberEmail: 'ann@example.com', fullName: 'Ann', password: '123' })
        .success,
    ).toBe(false);
    expect(
      acceptInviteSchema.safeParse({
        token: `${token}=`,
        newMemberEmail: 'ann@example.com',
        fullName: 'Ann',
        password: 'secret1',
      }).success,
    ).toBe(false);
    expect(
      acceptInviteSchema.safeParse({ token, newMemberEmail: 'ann@example.com', fullName: '  ', password: 'secret1' })
        .success,
    ).toBe(false);
  });

  it('path ids: a 43-character token, a 16-character invite id, a UUID member id', () => {
    expect(inviteTokenParamsSchema.safeParse({ id: token }).success).toBe(true);
    expect(inviteTokenParamsSchema.safeParse({ id: '../../etc' }).success).toBe(false);
    expect(inviteIdParamsSchema.safeParse({ id: 'Ab3dEf7hIj1lMn0p' }).success).toBe(true);
    expect(inviteIdParamsSchema.safeParse({ id: token }).success).toBe(false);
    expect(memberIdParamsSchema.safeParse({ id: '6f1c2a9e-1b2c-4d3e-8f90-0123456789ab' }).success).toBe(true);
    expect(memberIdParamsSchema.safeParse({ id: 'USER#x' }).success).toBe(false);
    expect(createInviteSchema.safeParse({ email: 'not an address' }).success).toBe(false);
  });
});
