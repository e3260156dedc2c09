/**
 * The refusals of POST /r/{id}/uploads that the request page says in its own words (the server
 * checks the rules again; functions/domain/requests-api.ts lists the codes). Other codes read
 * through the app's table (i18n/error-keys.ts).
 */
import { formatSize } from '@/lib/format-size';
import type { FormProblem } from './request-rules';

export type RefusalText =
  | { readonly key: 'public.refused.tooLarge'; readonly params: { readonly max: string } }
  | { readonly key: 'public.refused.tooMany'; readonly params: { readonly max: number } }
  | { readonly key: 'public.refused.type' | 'public.refused.blocked'; readonly params: { readonly file: string } };

function detailsOf(details: unknown): { limit?: unknown; fileName?: unknown } {
  return typeof details === 'object' && details !== null ? (details as { limit?: unknown; fileName?: unknown }) : {};
}

/** `language`: the page's, for the size in the reader's own format. */
export function refusalText(code: string, details: unknown, language = 'en'): RefusalText | null {
  const d = detailsOf(details);
  const file = typeof d.fileName === 'string' ? d.fileName : '';
  switch (code) {
    case 'request_too_large':
      return typeof d.limit === 'number'
        ? { key: 'public.refused.tooLarge', params: { max: formatSize(d.limit, language) } }
        : null;
    case 'request_too_many_files':
      return typeof d.limit === 'number' ? { key: 'public.refused.tooMany', params: { max: d.limit } } : null;
    case 'request_file_type':
      return { key: 'public.refused.type', params: { file } };
    case 'request_file_blocked':
      return { key: 'public.refused.blocked', params: { file } };
    default:
      return null;
  }
}

/**
 * A refusal of POST /requests that names a field of the new-request form (the form checks the
 * same first, so only a plan that changed meanwhile or a clock far off meets these).
 */
export function formProblemOf(code: string, details: unknown): FormProblem | null {
  const field = typeof details === 'object' && details !== null ? (details as { field?: unknown }).field : undefined;
  if (code === 'due_date_past') return { field: 'dueDate', code: 'past' };
  if (code === 'rules_exceed_plan')
    return field === 'rules.maxFiles'
      ? { field: 'maxFiles', code: 'over_plan' }
      : { field: 'maxSize', code: 'over_plan' };
  return null;
}
