import type { ComponentProps } from 'react';
import { useTranslation } from 'react-i18next';
import Markdown, { type Components } from 'react-markdown';
import type { ChangelogEntry } from '@domain/dashboard-api';
import { formatDate } from '@/lib/format';

/** Links in entries leave the app in a new tab without handing it our window. */
function EntryLink({ node: _node, href, children, ...rest }: ComponentProps<'a'> & { node?: unknown }) {
  const external = typeof href === 'string' && /^https?:\/\//iu.test(href);
  return (
    <a href={href} {...rest} {...(external ? { target: '_blank', rel: 'noopener noreferrer' } : { rel: 'noopener' })}>
      {children}
    </a>
  );
}

const COMPONENTS: Components = { a: EntryLink, h1: 'h3', h2: 'h3' };

/**
 * Changelog entries (spec §3: types, created, title, markdownDetails), shared by /updates and the
 * what's-new panel. Markdown only: raw HTML in an entry is dropped, and react-markdown's URL
 * check turns javascript: and other unsafe links into empty ones.
 */
export function ChangelogEntries({
  entries,
  headingLevel = 2,
  isNew,
  newLabel,
}: {
  entries: readonly ChangelogEntry[];
  headingLevel?: 2 | 3;
  /** marks entries the reader has not seen yet */
  isNew?: (entry: ChangelogEntry) => boolean;
  /** the mark's text, with isNew */
  newLabel?: string;
}) {
  const { t, i18n } = useTranslation();
  const lng = i18n.resolvedLanguage ?? 'en';
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <ol className="changelog">
      {entries.map((entry) => (
        <li key={entry.id} className="changelog-entry" id={entry.id} data-testid="changelog-entry">
          <div className="changelog-meta">
            <time dateTime={entry.created}>{formatDate(entry.created.slice(0, 10), lng)}</time>
            {newLabel && isNew?.(entry) && <span className="badge changelog-unseen">{newLabel}</span>}
            {entry.types.map((type) => (
              <span key={type} className={`badge badge-${type}`}>
                {t(`updates.types.${type}`)}
              </span>
            ))}
          </div>
          <Heading>{entry.title}</Heading>
          <div className="changelog-details">
            <Markdown skipHtml components={COMPONENTS}>
              {entry.markdownDetails}
            </Markdown>
          </div>
        </li>
      ))}
    </ol>
  );
}
