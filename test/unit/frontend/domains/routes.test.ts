import { describe, expect, it } from 'vitest';
import { matchRoutes, type RouteObject } from 'react-router';
import { paths } from '@/app/paths';
import { dashRoutes } from '@/app/dash-routes';
import { accountMenuItems } from '@/lib/session/user-display';

const tree: RouteObject[] = [{ path: '/dash', children: dashRoutes }];

describe('/dash/account/domain (spec §2 domainSettings)', () => {
  it("is the account menu's Domain item, a named route loaded on demand", async () => {
    expect(paths.domainSettings()).toBe('/dash/account/domain');
    const route = matchRoutes(tree, paths.domainSettings())?.at(-1)?.route;
    expect(route?.id).toBe('domainSettings');
    const lazy = route?.lazy as (() => Promise<Partial<RouteObject>>) | undefined;
    expect((await lazy!()).Component?.name).toBe('DomainSettingsPage');
  });

  it('is offered to admins and individual users, not to team members', () => {
    expect(accountMenuItems({ isTeamMember: false })).toContain('domain');
    expect(accountMenuItems({ isTeamMember: true })).not.toContain('domain');
  });
});
