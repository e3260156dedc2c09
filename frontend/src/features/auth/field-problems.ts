/**
 * Form checks of spec §5 with the domain's schemas, answered as translation keys
 * (auth.errors.*) so every language shows its own text for the same rule. Problems are told
 * apart by their stable code (domain/validation.ts problemOf), never by their English text.
 */
import { loginSchema, emailSchema, problemOf, signupPasswordSchema } from '@domain/validation';

export type FieldProblem = 'emailRequired' | 'invalidEmail' | 'passwordRequired' | 'passwordTooShort' | 'nameRequired';

const BY_CODE: Readonly<Record<string, FieldProblem>> = {
  email_required: 'emailRequired',
  invalid_email: 'invalidEmail',
  password_required: 'passwordRequired',
  signup_password_too_short: 'passwordTooShort',
  name_required: 'nameRequired',
};

type Issue = Parameters<typeof problemOf>[0];

function firstProblem(issues: readonly Issue[], fallback: FieldProblem): FieldProblem {
  for (const issue of issues) {
    const problem = BY_CODE[problemOf(issue).code];
    if (problem) return problem;
  }
  return fallback;
}

/** Registration and login email: required, valid (the schema also lower-cases it). */
export function emailProblem(value: string): FieldProblem | null {
  const parsed = emailSchema.safeParse(value);
  return parsed.success ? null : firstProblem(parsed.error.issues, 'invalidEmail');
}

/** Sign-up and new passwords: required, at least 6 characters. */
export function newPasswordProblem(value: string): FieldProblem | null {
  if (value === '') return 'passwordRequired';
  const parsed = signupPasswordSchema.safeParse(value);
  return parsed.success ? null : firstProblem(parsed.error.issues, 'passwordTooShort');
}

export function nameProblem(value: string): FieldProblem | null {
  return value.trim() === '' ? 'nameRequired' : null;
}

export interface LoginProblems {
  readonly email: FieldProblem | null;
  readonly password: FieldProblem | null;
}

/** Login: email required and valid, password required. */
export function loginProblems(input: { email: string; password: string }): LoginProblems {
  const parsed = loginSchema.safeParse(input);
  if (parsed.success) return { email: null, password: null };
  const at = (field: string) => parsed.error.issues.filter((issue) => issue.path[0] === field);
  const emailIssues = at('email');
  const passwordIssues = at('password');
  return {
    email: emailIssues.length ? firstProblem(emailIssues, 'invalidEmail') : null,
    password: passwordIssues.length ? firstProblem(passwordIssues, 'passwordRequired') : null,
  };
}

/** The email as the API receives it: trimmed and lower-cased (spec §5). */
export function normalisedEmail(value: string): string {
  return value.trim().toLowerCase();
}
