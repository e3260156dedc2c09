/**
 * File requests as pure data (no React): the rules a visitor's files are checked against
 * before anything is uploaded (the server checks again), and the requester's "new request"
 * form, prefilled from their requestSettings and turned into POST /requests' body.
 */
import { fileKey, totalSize, type FileEntry } from '@domain/file-filters';
import {
  REQUEST_MESSAGE_MAX,
  REQUEST_TITLE_MAX,
  REQUEST_TYPES_MAX,
  createRequestSchema,
  fileExtensionSchema,
  typeAllowed,
  type CreateRequestInput,
  type RequestRules,
  type RequestSettings,
} from '@domain/requests-api';
import { DAY_MS, GB, MB } from '@domain/units';

// ---- the visitor's files against the request's rules -------------------------------------------

/** What the public page enforces: the request's own rules, the plan's limits where it sets none. */
export interface EffectiveRules {
  readonly maxBytes: number;
  readonly maxFiles: number;
  readonly allowedTypes: readonly string[];
}

export function effectiveRules(page: {
  readonly rules: RequestRules;
  readonly maxBytes: number;
  readonly maxFiles: number;
}): EffectiveRules {
  return {
    maxBytes: Math.min(page.rules.maxBytes ?? page.maxBytes, page.maxBytes),
    maxFiles: Math.min(page.rules.maxFiles ?? page.maxFiles, page.maxFiles),
    allowedTypes: page.rules.allowedTypes ?? [],
  };
}

export type RuleProblem =
  | { readonly kind: 'type'; readonly files: readonly string[] }
  | { readonly kind: 'size'; readonly bytes: number; readonly max: number }
  | { readonly kind: 'count'; readonly count: number; readonly max: number };

/** Every rule the picked files break, in the order the page lists them; empty when they may go. */
export function ruleProblems(files: readonly FileEntry[], rules: EffectiveRules): RuleProblem[] {
  const problems: RuleProblem[] = [];
  const wrongType = files.filter((f) => !typeAllowed(f.fileName, rules.allowedTypes)).map((f) => fileKey(f));
  if (wrongType.length > 0) problems.push({ kind: 'type', files: wrongType });
  const bytes = totalSize(files);
  if (bytes > rules.maxBytes) problems.push({ kind: 'size', bytes, max: rules.maxBytes });
  if (files.length > rules.maxFiles) problems.push({ kind: 'count', count: files.length, max: rules.maxFiles });
  return problems;
}

/** The visitor's details: a name, a valid address, a message of at most the contract's length. */
export interface VisitorDetails {
  readonly name: string;
  readonly email: string;
  readonly message: string;
}

export type VisitorField = 'name' | 'email' | 'message';

const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/u;

export function visitorProblems(details: VisitorDetails): VisitorField[] {
  const fields: VisitorField[] = [];
  if (details.name.trim() === '' || details.name.trim().length > 200) fields.push('name');
  if (!EMAIL_SHAPE.test(details.email.trim())) fields.push('email');
  if (details.message.length > REQUEST_MESSAGE_MAX) fields.push('message');
  return fields;
}

// ---- the requester's new-request form ------------------------------------------------------------

export type SizeUnit = 'MB' | 'GB';
const UNIT_BYTES: Record<SizeUnit, number> = { MB, GB };

/** The form's fields as typed (strings, as inputs hold them). */
export interface RequestForm {
  readonly title: string;
  readonly message: string;
  /** yyyy-mm-dd of an <input type="date">, '' for none */
  readonly dueDate: string;
  /** '' for the plan's limit */
  readonly maxSize: string;
  readonly sizeUnit: SizeUnit;
  /** extensions separated by commas or spaces, '' for any type */
  readonly types: string;
  /** '' for the plan's limit */
  readonly maxFiles: string;
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

/** A local calendar day as an <input type="date"> value. */
export function toDateInputValue(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** The due date a day names: the end of that day where the requester is. Null for '' or nonsense. */
export function dueDateOf(value: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/u.exec(value);
  if (!m) return null;
  const end = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]), 23, 59, 59, 999);
  return Number.isNaN(end.getTime()) || end.getDate() !== Number(m[3]) ? null : end.getTime();
}

/** Bytes as the form shows them: whole GB when they are, else MB. */
function sizeFields(bytes: number | undefined): Pick<RequestForm, 'maxSize' | 'sizeUnit'> {
  if (bytes === undefined) return { maxSize: '', sizeUnit: 'GB' };
  if (bytes % GB === 0) return { maxSize: String(bytes / GB), sizeUnit: 'GB' };
  return { maxSize: String(Math.round((bytes / MB) * 100) / 100), sizeUnit: 'MB' };
}

/** A new request's form, from the requester's requestSettings (spec §3) where they have them. */
export function initialRequestForm(settings: RequestSettings | undefined, now: number): RequestForm {
  const rules = settings?.defaultRules ?? {};
  return {
    title: '',
    message: settings?.defaultMessage ?? '',
    dueDate: settings?.defaultDueDays ? toDateInputValue(now + settings.defaultDueDays * DAY_MS) : '',
    ...sizeFields(rules.maxBytes),
    types: (rules.allowedTypes ?? []).join(', '),
    maxFiles: rules.maxFiles === undefined ? '' : String(rules.maxFiles),
  };
}

export type FormField = 'title' | 'message' | 'dueDate' | 'maxSize' | 'types' | 'maxFiles';
export type FormProblem =
  | { readonly field: 'title'; readonly code: 'required' | 'too_long' }
  | { readonly field: 'message'; readonly code: 'too_long' }
  | { readonly field: 'dueDate'; readonly code: 'invalid' | 'past' }
  | { readonly field: 'maxSize'; readonly code: 'invalid' | 'over_plan' }
  | { readonly field: 'types'; readonly code: 'invalid' | 'too_many'; readonly value?: string }
  | { readonly field: 'maxFiles'; readonly code: 'invalid' | 'over_plan' };

/** 'pdf, .JPG  docx' -> ['pdf', 'jpg', 'docx'] (duplicates once); the first bad one otherwise. */
export function parseTypes(text: string): { types: string[] } | { invalid: string } {
  const types: string[] = [];
  for (const part of text.split(/[\s,;]+/u).filter((p) => p !== '')) {
    const parsed = fileExtensionSchema.safeParse(part);
    if (!parsed.success) return { invalid: part };
    if (!types.includes(parsed.data)) types.push(parsed.data);
  }
  return { types };
}

function positiveNumber(text: string): number | null {
  if (!/^\d+([.,]\d+)?$/u.test(text.trim())) return null;
  const n = Number(text.trim().replace(',', '.'));
  return n > 0 ? n : null;
}

/**
 * The form as POST /requests' body, or what is wrong with it. `limits` are the requester's
 * plan's: a request may not allow more than the plan uploads at once.
 */
export function toCreateInput(
  form: RequestForm,
  limits: { readonly uploadLimit: number; readonly files: number },
  now: number,
): { input: CreateRequestInput } | { problems: FormProblem[] } {
  const problems: FormProblem[] = [];
  const title = form.title.trim();
  if (title === '') problems.push({ field: 'title', code: 'required' });
  else if (title.length > REQUEST_TITLE_MAX) problems.push({ field: 'title', code: 'too_long' });
  if (form.message.length > REQUEST_MESSAGE_MAX) problems.push({ field: 'message', code: 'too_long' });

  let dueDate: number | undefined;
  if (form.dueDate !== '') {
    const due = dueDateOf(form.dueDate);
    if (due === null) problems.push({ field: 'dueDate', code: 'invalid' });
    else if (due <= now) problems.push({ field: 'dueDate', code: 'past' });
    else dueDate = due;
  }

  let maxBytes: number | undefined;
  if (form.maxSize.trim() !== '') {
    const n = positiveNumber(form.maxSize);
    if (n === null) problems.push({ field: 'maxSize', code: 'invalid' });
    else {
      maxBytes = Math.round(n * UNIT_BYTES[form.sizeUnit]);
      if (maxBytes > limits.uploadLimit) problems.push({ field: 'maxSize', code: 'over_plan' });
    }
  }

  const types = parseTypes(form.types);
  if ('invalid' in types) problems.push({ field: 'types', code: 'invalid', value: types.invalid });
  else if (types.types.length > REQUEST_TYPES_MAX) problems.push({ field: 'types', code: 'too_many' });

  let maxFiles: number | undefined;
  if (form.maxFiles.trim() !== '') {
    const n = positiveNumber(form.maxFiles);
    if (n === null || !Number.isInteger(n)) problems.push({ field: 'maxFiles', code: 'invalid' });
    else if (n > limits.files) problems.push({ field: 'maxFiles', code: 'over_plan' });
    else maxFiles = n;
  }

  if (problems.length > 0) return { problems };
  const rules: RequestRules = {
    ...(maxBytes !== undefined ? { maxBytes } : {}),
    ...('types' in types && types.types.length > 0 ? { allowedTypes: types.types } : {}),
    ...(maxFiles !== undefined ? { maxFiles } : {}),
  };
  const input: CreateRequestInput = {
    title,
    message: form.message,
    rules,
    ...(dueDate !== undefined ? { dueDate } : {}),
  };
  // The contract's own schema has the last word, so the button and the server agree.
  const checked = createRequestSchema.safeParse(input);
  return checked.success ? { input } : { problems: [{ field: 'title', code: 'required' }] };
}
