import type { OperationView } from '../openapi-view';

/** An operation's anchor in the reference. */
export const anchorOf = (op: OperationView) =>
  `op-${op.method.toLowerCase()}${op.path.replace(/[^A-Za-z0-9]+/gu, '-')}`.replace(/-+$/u, '');

/** A link to an operation in the reference: its method and path. */
export function OperationLink({ op }: { op: OperationView }) {
  return (
    <a href={`#${anchorOf(op)}`}>
      <span className={`dev-method dev-method-${op.method.toLowerCase()}`}>{op.method}</span> <code>{op.path}</code>
    </a>
  );
}
