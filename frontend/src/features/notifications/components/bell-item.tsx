import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { NotificationView } from '@domain/dashboard-api';
import { relativeTime } from '../relative-time';

/**
 * One item of the panel, a link to what it is about: its title (with "New" for screen readers
 * while unread), who when known, and when, after an optional detail.
 */
export function BellItem(props: {
  n: NotificationView;
  to: string;
  kind?: string;
  title: ReactNode;
  who?: ReactNode;
  detail?: ReactNode;
  newLabel: string;
  now: number;
  lng: string;
  onOpen: (n: NotificationView) => void;
}) {
  const { n } = props;
  return (
    <li>
      <Link
        to={props.to}
        className={n.read ? 'bell-item' : 'bell-item bell-item-unread'}
        onClick={() => props.onOpen(n)}
        data-testid="bell-item"
        data-kind={props.kind}
      >
        <span className="bell-item-file">
          {!n.read && <span className="sr-only">{props.newLabel} </span>}
          {props.title}
        </span>
        {props.who !== undefined && <span className="bell-item-who">{props.who}</span>}
        <span className="bell-item-meta">
          {props.detail !== undefined && (
            <>
              {props.detail}
              <span aria-hidden="true"> · </span>
            </>
          )}
          <time dateTime={new Date(n.dlDate).toISOString()}>{relativeTime(n.dlDate, props.now, props.lng)}</time>
        </span>
      </Link>
    </li>
  );
}
