import { describe, expect, it } from 'vitest';
import {
  createRequestSchema,
  effectiveLimits,
  listRequestsQuerySchema,
  requestRulesSchema,
  requestStateAt,
  requestUploadParamsSchema,
  rulesBeyondPlan,
  startRequestUploadSchema,
  typeAllowed,
} from '../../../functions/domain/requests-api';

const PLAN = { uploadLimit: 1000, files: 10 };

describe('file request rules', () => {
  it('normalises allowed types: lower case, no leading dots; refuses odd ones', () => {
    expect(requestRulesSchema.parse({ allowedTypes: ['.PDF', ' jpg ', '..Tar'] }).allowedTypes).toEqual([
      'pdf',
      'jpg',
      'tar',
    ]);
    for (const bad of ['p d f', 'a/b', '', 'verylongextension', '.'])
      expect(requestRulesSchema.safeParse({ allowedTypes: [bad] }).success, bad).toBe(false);
    expect(requestRulesSchema.safeParse({ maxBytes: 0 }).success).toBe(false);
    expect(requestRulesSchema.safeParse({ maxFiles: 1.5 }).success).toBe(false);
  });

  it('a file passes the types by its last extension, any type without a list', () => {
    expect(typeAllowed('scan.PDF', ['pdf'])).toBe(true);
    expect(typeAllowed('archive.tar.gz', ['gz'])).toBe(true);
    expect(typeAllowed('archive.tar.gz', ['tar'])).toBe(false);
    expect(typeAllowed('.pdf', ['pdf'])).toBe(false);
    expect(typeAllowed('noext', ['pdf'])).toBe(false);
    expect(typeAllowed('trailing.', ['pdf'])).toBe(false);
    expect(typeAllowed('anything.exe', undefined)).toBe(true);
    expect(typeAllowed('anything.exe', [])).toBe(true);
  });

  it('the limits a request accepts are its rules within the plan', () => {
    expect(effectiveLimits({}, PLAN)).toEqual({ maxBytes: 1000, maxFiles: 10 });
    expect(effectiveLimits({ maxBytes: 50, maxFiles: 2 }, PLAN)).toEqual({ maxBytes: 50, maxFiles: 2 });
    // A plan downgraded after the request was made caps it.
    expect(effectiveLimits({ maxBytes: 5000, maxFiles: 99 }, PLAN)).toEqual({ maxBytes: 1000, maxFiles: 10 });
  });

  it('names the rules beyond the plan', () => {
    expect(rulesBeyondPlan({ maxBytes: 1000, maxFiles: 10 }, PLAN)).toEqual([]);
    expect(rulesBeyondPlan({ maxBytes: 1001, maxFiles: 11 }, PLAN)).toEqual(['maxBytes', 'maxFiles']);
  });

  it('state: closed wins, then the due date (reached at the instant)', () => {
    expect(requestStateAt({ closed: false, dueDate: null }, 5)).toBe('open');
    expect(requestStateAt({ closed: false, dueDate: 10 }, 9)).toBe('open');
    expect(requestStateAt({ closed: false, dueDate: 10 }, 10)).toBe('expired');
    expect(requestStateAt({ closed: true, dueDate: 10 }, 20)).toBe('closed');
    expect(requestStateAt({ closed: true, dueDate: null }, 0)).toBe('closed');
  });
});

describe('file request schemas', () => {
  it('GET /requests takes exactly one of userid and slug', () => {
    expect(listRequestsQuerySchema.safeParse({ userid: 'abc' }).success).toBe(true);
    expect(listRequestsQuerySchema.safeParse({ slug: 'Ab3dE5gH' }).success).toBe(true);
    expect(listRequestsQuerySchema.safeParse({ userid: 'abc', slug: 'Ab3dE5gH' }).success).toBe(false);
    expect(listRequestsQuerySchema.safeParse({}).success).toBe(false);
    expect(listRequestsQuerySchema.safeParse({ slug: 'short' }).success).toBe(false);
    expect(listRequestsQuerySchema.safeParse({ userid: '' }).success).toBe(false);
  });

  it('a request needs a title; rules default to none', () => {
    expect(createRequestSchema.parse({ title: '  Contract  ' })).toEqual({ title: 'Contract', message: '', rules: {} });
    expect(createRequestSchema.safeParse({ title: '   ' }).success).toBe(false);
    expect(createRequestSchema.safeParse({ title: 'x'.repeat(121) }).success).toBe(false);
  });

  it("an upload's file names are normalised like a send's", () => {
    const parsed = startRequestUploadSchema.parse({
      senderName: 'V',
      senderEmail: 'v@example.com',
      fileObjects: [{ fileName: 'a\u202e/../b.txt', size: 1, itemPath: '../../x/b.txt' }],
    });
    expect(parsed.fileObjects[0]!.fileName).toBe('b.txt');
    expect(parsed.fileObjects[0]!.itemPath).toBe('x/b.txt');
    expect(
      startRequestUploadSchema.safeParse({ senderName: 'V', senderEmail: 'v@example.com', fileObjects: [] }).success,
    ).toBe(false);
  });

  it('the delete route takes a request id and a transfer slug', () => {
    expect(requestUploadParamsSchema.safeParse({ id: 'Ab3dE5gH', slug: 'Ab3dE5g' }).success).toBe(true);
    expect(requestUploadParamsSchema.safeParse({ id: 'Ab3dE5g', slug: 'Ab3dE5g' }).success).toBe(false);
    expect(requestUploadParamsSchema.safeParse({ id: 'Ab3dE5gH', slug: '../etc1' }).success).toBe(false);
  });
});
