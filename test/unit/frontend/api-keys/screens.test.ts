import { describe, expect, it } from 'vitest';
import { matchRoutes, type RouteObject } from 'react-router';
import { openApiDocument, publicRoutes } from '../../../../functions/domain/openapi';
import { paths } from '@/app/paths';
import { routes as appRoutes } from '@/app/routes';
import { dashRoutes } from '@/app/dash-routes';
import { apiDocView, exampleFields, fieldsOf, typeOf } from '@/features/developers/openapi-view';
import { accountMenuItems } from '@/lib/session/user-display';

const mayUseApiKeys = (u: { isTeamMember: boolean; apiKeysAllowed?: boolean }) =>
  accountMenuItems(u).includes('apiKeys');

const tree: RouteObject[] = [{ path: '/dash', children: dashRoutes }];

describe('/dash/account/api-keys', () => {
  it('is a named dashboard route loaded on demand', async () => {
    expect(paths.apiKeys()).toBe('/dash/account/api-keys');
    const route = matchRoutes(tree, paths.apiKeys())?.at(-1)?.route;
    expect(route?.id).toBe('apiKeys');
    const lazy = route?.lazy as (() => Promise<Partial<RouteObject>>) | undefined;
    expect((await lazy!()).Component?.name).toBe('ApiKeysPage');
  });

  it('is offered to everyone but team members whose admin has not allowed keys', () => {
    expect(mayUseApiKeys({ isTeamMember: false })).toBe(true);
    expect(mayUseApiKeys({ isTeamMember: true })).toBe(false);
    expect(mayUseApiKeys({ isTeamMember: true, apiKeysAllowed: false })).toBe(false);
    expect(mayUseApiKeys({ isTeamMember: true, apiKeysAllowed: true })).toBe(true);
    expect(accountMenuItems({ isTeamMember: true, apiKeysAllowed: true })).toContain('apiKeys');
  });
});

describe('/developers', () => {
  it('is a public route loaded on demand', async () => {
    const route = matchRoutes(appRoutes, paths.developers())?.at(-1)?.route;
    expect(route?.id).toBe('developers');
    const lazy = route?.lazy as (() => Promise<Partial<RouteObject>>) | undefined;
    expect((await lazy!()).Component?.name).toBe('DevelopersPage');
  });

  it('shows every v1 route of the generated document, grouped by tag, with scope, parameters, body and answer fields', () => {
    const view = apiDocView(openApiDocument('https://app.example/api'));
    expect(view.serverUrl).toBe('https://app.example/api');
    const shown = view.tags.flatMap((t) => t.operations.map((o) => o.id)).sort();
    expect(shown).toEqual(
      publicRoutes()
        .map((r) => `${r.method} ${r.path}`)
        .sort(),
    );
    expect(view.tags.map((t) => t.name)).toEqual(['Transfers', 'Uploads', 'Requests', 'Webhooks']);

    const create = view.tags.flatMap((t) => t.operations).find((o) => o.id === 'POST /v1/transfers')!;
    expect(create.scope).toBe('send');
    expect(create.status).toBe('201');
    expect(create.description).not.toContain('Scope:');
    // the app's send body: a send of recordings alone leaves fileObjects out (at least one file: no_files)
    expect(create.body.find((f) => f.name === 'fileObjects')).toMatchObject({
      required: false,
      type: 'array of object',
    });
    expect(create.body.find((f) => f.name === 'sendAs')).toMatchObject({ required: false, type: '"link" | "email"' });
    expect(create.response.map((f) => f.name)).toContain('link');

    const complete = view.tags
      .flatMap((t) => t.operations)
      .find((o) => o.id === 'POST /v1/transfers/{id}/files/{fileId}/complete')!;
    expect(complete.parameters.map((p) => `${p.in}:${p.name}:${p.required}`)).toEqual([
      'path:id:true',
      'path:fileId:true',
    ]);
    const list = view.tags.flatMap((t) => t.operations).find((o) => o.id === 'GET /v1/transfers')!;
    expect(list.parameters.every((p) => p.in === 'query')).toBe(true);
    expect(list.scope).toBe('transfers:read');
  });

  it('reads JSON Schema types, object fields and example answers', () => {
    expect(typeOf({ type: 'integer' })).toBe('integer');
    expect(typeOf({ anyOf: [{ type: 'string' }, { type: 'null' }] })).toBe('string | null');
    expect(typeOf({ type: 'array', items: { type: 'string' } })).toBe('array of string');
    expect(typeOf(undefined)).toBe('any');
    expect(
      fieldsOf({ type: 'object', properties: { a: { type: 'string', description: 'x' }, b: {} }, required: ['a'] }),
    ).toEqual([
      { name: 'a', type: 'string', required: true, description: 'x' },
      { name: 'b', type: 'any', required: false },
    ]);
    expect(exampleFields({ n: 3, f: 1.5, s: 'x', l: [{ a: 1 }] }).map((f) => f.type)).toEqual([
      'integer',
      'number',
      'string',
      'array of object',
    ]);
    expect(() => apiDocView({})).toThrow();
  });
});
