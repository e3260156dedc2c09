/** The shared header row of the screens' tables (components/table-head.tsx). */
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { TableHead } from '@/components/table-head';

describe('TableHead', () => {
  it('is one row of column headers, in order, text or markup', () => {
    const html = renderToStaticMarkup(
      <table>
        <TableHead
          columns={[
            'Name',
            'Key',
            <span key="actions" className="sr-only">
              Actions
            </span>,
          ]}
        />
      </table>,
    );
    expect(html).toBe(
      '<table><thead><tr><th scope="col">Name</th><th scope="col">Key</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead></table>',
    );
  });
});
