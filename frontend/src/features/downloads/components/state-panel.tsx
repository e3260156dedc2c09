import type { ComponentType, ReactNode, SVGProps } from 'react';

/**
 * The download page's card for a state other than the files (locked, expired, disabled, not
 * found, an error): a large icon, warm for a problem, the state as the page's heading, then what
 * the visitor can do.
 */
export function StatePanel({
  icon: Icon,
  warn,
  title,
  titleTestId,
  children,
}: {
  icon: ComponentType<SVGProps<SVGSVGElement>>;
  warn?: boolean;
  title: ReactNode;
  titleTestId?: string;
  children?: ReactNode;
}) {
  return (
    <div className="download-card download-state">
      <span className={`download-state-icon${warn ? ' download-state-icon-warn' : ''}`} aria-hidden="true">
        <Icon width={28} height={28} />
      </span>
      <h1 className="download-state-title" data-testid={titleTestId}>
        {title}
      </h1>
      {children}
    </div>
  );
}
