import { describe, expect, it } from 'vitest';
import { createRequestSchema } from '@domain/requests-api';
import { DAY_MS, GB, MB } from '@domain/units';
import { formProblemOf, refusalText } from '@/features/requests/request-errors';
import {
  dueDateOf,
  effectiveRules,
  initialRequestForm,
  parseTypes,
  ruleProblems,
  toCreateInput,
  toDateInputValue,
  visitorProblems,
  type RequestForm,
} from '@/features/requests/request-rules';
import { closedKind } from '@/features/requests/request-state';

const PLAN = { uploadLimit: 100 * GB, files: 10_000 };
const NOW = new Date(2026, 10, 25, 10, 0, 0).getTime();
const blank: RequestForm = {
  title: 'Invoices',
  message: '',
  dueDate: '',
  maxSize: '',
  sizeUnit: 'GB',
  types: '',
  maxFiles: '',
};

describe("the visitor's files against a request's rules", () => {
  const page = {
    rules: { allowedTypes: ['pdf', 'jpg'], maxFiles: 2, maxBytes: 5 * MB },
    maxBytes: 3 * GB,
    maxFiles: 10_000,
  };

  it("takes the request's rules within the plan's, and the plan's where the request sets none", () => {
    expect(effectiveRules(page)).toEqual({ maxBytes: 5 * MB, maxFiles: 2, allowedTypes: ['pdf', 'jpg'] });
    expect(effectiveRules({ rules: {}, maxBytes: 3 * GB, maxFiles: 500 })).toEqual({
      maxBytes: 3 * GB,
      maxFiles: 500,
      allowedTypes: [],
    });
    // a rule above the plan (the plan shrank since) is held to the plan
    expect(
      effectiveRules({ rules: { maxBytes: 9 * GB, maxFiles: 900 }, maxBytes: 3 * GB, maxFiles: 500 }),
    ).toMatchObject({ maxBytes: 3 * GB, maxFiles: 500 });
  });

  it('names files of a type the request does not take, by their path in a folder', () => {
    const problems = ruleProblems(
      [
        { fileName: 'a.PDF', size: 1 },
        { fileName: 'notes.txt', size: 1, itemPath: 'docs/notes.txt' },
        { fileName: 'README', size: 1 },
      ],
      effectiveRules({ ...page, rules: { ...page.rules, maxFiles: 5 } }),
    );
    expect(problems).toEqual([{ kind: 'type', files: ['docs/notes.txt', 'README'] }]);
  });

  it('reports a total over the size and a count over the most files', () => {
    const files = [
      { fileName: 'a.pdf', size: 3 * MB },
      { fileName: 'b.pdf', size: 3 * MB },
      { fileName: 'c.jpg', size: 1 },
    ];
    expect(ruleProblems(files, effectiveRules(page))).toEqual([
      { kind: 'size', bytes: 6 * MB + 1, max: 5 * MB },
      { kind: 'count', count: 3, max: 2 },
    ]);
    expect(ruleProblems(files.slice(0, 1), effectiveRules(page))).toEqual([]);
  });

  it("asks for the visitor's name and a valid address", () => {
    expect(visitorProblems({ name: ' ', email: 'nope', message: '' })).toEqual(['name', 'email']);
    expect(visitorProblems({ name: 'Vera', email: 'vera@example.com', message: 'x'.repeat(2001) })).toEqual([
      'message',
    ]);
    expect(visitorProblems({ name: 'Vera', email: ' vera@example.com ', message: '' })).toEqual([]);
  });
});

describe('the new-request form', () => {
  it('starts from the requestSettings: message, due date N days on, rules', () => {
    const form = initialRequestForm(
      {
        defaultMessage: 'Hi!',
        defaultDueDays: 7,
        defaultRules: { maxBytes: 2 * GB, allowedTypes: ['pdf', 'docx'], maxFiles: 20 },
      },
      NOW,
    );
    expect(form).toEqual({
      title: '',
      message: 'Hi!',
      dueDate: toDateInputValue(NOW + 7 * DAY_MS),
      maxSize: '2',
      sizeUnit: 'GB',
      types: 'pdf, docx',
      maxFiles: '20',
    });
    expect(initialRequestForm({ defaultRules: { maxBytes: 250 * MB } }, NOW)).toMatchObject({
      maxSize: '250',
      sizeUnit: 'MB',
      dueDate: '',
    });
    expect(initialRequestForm(undefined, NOW)).toEqual({ ...blank, title: '' });
  });

  it('reads extensions however they are typed, and refuses what is not one', () => {
    expect(parseTypes(' pdf, .JPG;docx  pdf ')).toEqual({ types: ['pdf', 'jpg', 'docx'] });
    expect(parseTypes('')).toEqual({ types: [] });
    expect(parseTypes('pdf, tar.gz')).toEqual({ invalid: 'tar.gz' });
  });

  it('turns a due day into the end of that day, and nonsense into null', () => {
    const due = dueDateOf('2026-12-01');
    expect(due).toBe(new Date(2026, 11, 1, 23, 59, 59, 999).getTime());
    expect(dueDateOf('2026-02-30')).toBeNull();
    expect(dueDateOf('tomorrow')).toBeNull();
  });

  it('builds the body POST /requests takes, which the contract schema accepts', () => {
    const result = toCreateInput(
      {
        ...blank,
        message: 'Please',
        dueDate: '2026-12-01',
        maxSize: '1,5',
        sizeUnit: 'GB',
        types: 'pdf jpg',
        maxFiles: '12',
      },
      PLAN,
      NOW,
    );
    expect(result).toEqual({
      input: {
        title: 'Invoices',
        message: 'Please',
        dueDate: new Date(2026, 11, 1, 23, 59, 59, 999).getTime(),
        rules: { maxBytes: 1.5 * GB, allowedTypes: ['pdf', 'jpg'], maxFiles: 12 },
      },
    });
    if (!('input' in result)) throw new Error('no input');
    expect(createRequestSchema.safeParse(result.input).success).toBe(true);
    expect(toCreateInput(blank, PLAN, NOW)).toEqual({ input: { title: 'Invoices', message: '', rules: {} } });
  });

  it('refuses each field that is wrong, before anything is sent', () => {
    const result = toCreateInput(
      {
        title: '  ',
        message: 'x'.repeat(2001),
        dueDate: toDateInputValue(NOW - DAY_MS),
        maxSize: '200',
        sizeUnit: 'GB',
        types: 'p d f!',
        maxFiles: '2.5',
      },
      PLAN,
      NOW,
    );
    expect(result).toEqual({
      problems: [
        { field: 'title', code: 'required' },
        { field: 'message', code: 'too_long' },
        { field: 'dueDate', code: 'past' },
        { field: 'maxSize', code: 'over_plan' },
        { field: 'types', code: 'invalid', value: 'f!' },
        { field: 'maxFiles', code: 'invalid' },
      ],
    });
    expect(toCreateInput({ ...blank, maxSize: '0', maxFiles: '10001' }, PLAN, NOW)).toEqual({
      problems: [
        { field: 'maxSize', code: 'invalid' },
        { field: 'maxFiles', code: 'over_plan' },
      ],
    });
  });
});

describe("the API's refusals as the request screens say them", () => {
  it('reads a 410 as closed or past due, by its details first', () => {
    expect(closedKind('request_closed', { state: 'closed', title: 't', requesterName: 'n' })).toBe('closed');
    expect(closedKind('request_expired', { state: 'expired' })).toBe('expired');
    expect(closedKind('request_expired', undefined)).toBe('expired');
    expect(closedKind('request_closed', null)).toBe('closed');
  });

  it("names the upload's broken rule with the limit or file the server sends", () => {
    expect(refusalText('request_too_large', { limit: 50 * MB })).toEqual({
      key: 'public.refused.tooLarge',
      params: { max: '50 MB' },
    });
    expect(refusalText('request_too_many_files', { limit: 5 })).toEqual({
      key: 'public.refused.tooMany',
      params: { max: 5 },
    });
    expect(refusalText('request_file_type', { fileName: 'x.exe' })).toEqual({
      key: 'public.refused.type',
      params: { file: 'x.exe' },
    });
    expect(refusalText('request_too_large', {})).toBeNull();
    expect(refusalText('storage_full', {})).toBeNull();
  });

  it("puts a refused create's problem on its field", () => {
    expect(formProblemOf('rules_exceed_plan', { field: 'rules.maxFiles', limit: 10 })).toEqual({
      field: 'maxFiles',
      code: 'over_plan',
    });
    expect(formProblemOf('rules_exceed_plan', { field: 'rules.maxBytes' })).toEqual({
      field: 'maxSize',
      code: 'over_plan',
    });
    expect(formProblemOf('due_date_past', {})).toEqual({ field: 'dueDate', code: 'past' });
    expect(formProblemOf('invalid_request', {})).toBeNull();
  });
});
