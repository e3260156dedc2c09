import { createInstance, type i18n as I18n } from 'i18next';
import { MemoryRouter } from 'react-router';
import { initReactI18next } from 'react-i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TransferDetail, TransferRow } from '@domain/dashboard-api';
import { qrPath } from '@/features/transfers/components/qr-code';
import { RecentTransfers } from '@/features/transfers/components/recent-transfers';
import { reviewBadges } from '@/features/transfers/components/review-badge';
import { TransferView } from '@/features/transfers/components/transfer-details';
import { TransferTable } from '@/features/transfers/components/transfer-table';
import { CATALOGUE, FALLBACK_NS } from '../../../helpers/catalogues';
import transfersEn from '@/i18n/locales/transfers/en.json';
import { renderHtml } from '../../../helpers/render-html';

let i18n: I18n;
beforeAll(async () => {
  i18n = createInstance();
  await i18n.use(initReactI18next).init({
    lng: 'en',
    ns: ['translation', 'transfers'],
    resources: { en: { ...CATALOGUE.en, transfers: transfersEn } },
    fallbackNS: FALLBACK_NS,
    interpolation: { escapeValue: false },
  });
});

const DAY = 24 * 3600 * 1000;
const now = Date.now();

const ROW: TransferRow = {
  _id: 'id1',
  slug: 'abc1234',
  fileName: 'report.pdf',
  fileCount: 3,
  size: 1_500_000_000,
  sendAs: 'email',
  recipients: ['bob@example.com', 'eve@example.com', 'kim@example.com'],
  dateSent: now - DAY,
  expiryDate: now + 3 * DAY + 3_600_000,
  state: 'active',
  total_downloads: 4,
  hasPassword: true,
  region: 'frankfurt',
};

const DETAIL: TransferDetail = {
  ...ROW,
  link: 'http://app.test/w/abc1234',
  message: 'Q4 numbers <b>inside</b>',
  senderEmail: 'ada@example.com',
  files: [
    { fileId: 'f000000001', fileName: 'report.pdf', size: 1_000_000_000 },
    { fileId: 'f000000002', fileName: 'a.jpg', itemPath: 'photos/a.jpg', size: 300_000_000 },
    { fileId: 'f000000003', fileName: 'b.jpg', itemPath: 'photos/b.jpg', size: 200_000_000 },
  ],
  recipientsDetail: [
    {
      email: 'bob@example.com',
      link: 'http://app.test/downloads/abc1234/r1',
      downloads: 3,
      lastDownloadAt: now - 3_600_000,
    },
    { email: 'eve@example.com', link: 'http://app.test/downloads/abc1234/r2', downloads: 0, remindedAt: now - 60_000 },
  ],
  downloads: [
    {
      dlDate: now - 3_600_000,
      country_name: 'Germany',
      countryCode: 'DE',
      receiverEmail: 'bob@example.com',
      fileName: 'report.pdf',
      dlOrigin: 'file',
    },
    { dlDate: now - 7_200_000, country_name: 'Unknown', countryCode: 'XX', fileName: 'abc1234.zip', dlOrigin: 'zip' },
  ],
  expirySeconds: 604800,
  purged: false,
};

describe('transfers list rows', () => {
  it('a row reads: first file and "+n files", size, first recipient "+ n", sent, "Expires in 3 days", downloads; it links to its modal', () => {
    const doc = renderHtml(
      i18n,
      <MemoryRouter>
        <TransferTable
          rows={[
            ROW,
            {
              ...ROW,
              slug: 'lnk0001',
              sendAs: 'link',
              recipients: [],
              fileCount: 1,
              hasPassword: false,
              state: 'expired',
              expiryDate: now - 2 * DAY,
            },
          ]}
          search="?filter=all"
        />
      </MemoryRouter>,
    );
    const text = doc.text();
    expect(text).toContain('report.pdf +2 files');
    expect(text).toContain('1.5 GB');
    expect(text).toContain('bob@example.com + 2');
    expect(text).toContain('Expires in 3 days');
    expect(text).toContain('Expired 2 days ago');
    expect(text).toMatch(/Link/);
    expect(doc.html).toContain('href="/dash/transfers/abc1234?filter=all"');
    expect(doc.html).toContain('aria-label="Password protected"');
    // A real table: column headers and row headers.
    expect(doc.html.match(/<th scope="col"/g)).toHaveLength(6);
    expect(doc.html.match(/<th scope="row"/g)).toHaveLength(2);
  });

  it('the home lists at most five, with their downloads, each opening its modal', () => {
    const rows = Array.from({ length: 7 }, (_, i) => ({ ...ROW, slug: `slug00${i}`, total_downloads: i }));
    const doc = renderHtml(
      i18n,
      <MemoryRouter>
        <RecentTransfers rows={rows} failed={false} />
      </MemoryRouter>,
    );
    expect(doc.html.match(/data-testid="recent-transfer"/g)).toHaveLength(5);
    expect(doc.text()).toContain('1 download');
    expect(doc.text()).toContain('4 downloads');
    expect(doc.html).toContain('href="/dash/transfers/slug004"');
    expect(doc.html).toContain('href="/dash/transfers"');
  });
});

describe('review badges in the lists', () => {
  const summary = { approved: 0, changesRequested: 0, unread: 0, transferApproved: false, closed: false };
  it('says approved only while no change is asked, and nothing without a review', () => {
    expect(reviewBadges(undefined)).toBeNull();
    expect(reviewBadges({ ...summary, approved: 2 })).toMatchObject({ approved: true, changesRequested: false });
    expect(reviewBadges({ ...summary, transferApproved: true, changesRequested: 1 })).toMatchObject({
      approved: false,
      changesRequested: true,
    });
    expect(reviewBadges({ ...summary, unread: 4 })).toMatchObject({ approved: false, unread: 4 });
  });

  it('reads approved, changes asked and unread comments; nothing for a quiet review or none', () => {
    const rows = [
      { ...ROW, slug: 'rev0001', review: { ...summary, approved: 1, transferApproved: true, unread: 2 } },
      { ...ROW, slug: 'rev0002', review: { ...summary, approved: 1, changesRequested: 1 } },
      { ...ROW, slug: 'rev0003', review: summary },
      { ...ROW, slug: 'rev0004' },
    ];
    const table = renderHtml(
      i18n,
      <MemoryRouter>
        <TransferTable rows={rows} search="" />
      </MemoryRouter>,
    );
    expect(table.html.match(/data-testid="review-badge"/g)).toHaveLength(2);
    expect(table.text()).toContain('Review: Approved 2 unread');
    expect(table.text()).toContain('Review: Changes asked');
    expect(table.text()).not.toMatch(/Approved\s*Changes asked/);
    const recent = renderHtml(
      i18n,
      <MemoryRouter>
        <RecentTransfers rows={rows} failed={false} />
      </MemoryRouter>,
    );
    expect(recent.html.match(/data-testid="review-badge-unread"/g)).toHaveLength(1);
  });
});

describe('TransferModal content', () => {
  it('shows link, QR, password on, files by folder, per-recipient status and every download with its country', () => {
    const doc = renderHtml(
      i18n,
      <MemoryRouter>
        <TransferView detail={DETAIL} />
      </MemoryRouter>,
    );
    const text = doc.text();
    expect(doc.tag('transfer-link')).toContain('value="http://app.test/w/abc1234"');
    expect(doc.has('transfer-qr')).toBe(true);
    expect(text).toContain('On');
    expect(text).toContain('photos');
    expect(text).toContain('Downloaded 3 times, last on');
    expect(text).toContain('Not downloaded yet');
    expect(text).toContain('reminded on');
    expect(text).toContain('Germany');
    expect(text).toContain('Unknown');
    expect(text).toContain('ZIP of all files');
    expect(text).toContain('Public link');
    // The message is text, never markup.
    expect(doc.html).toContain('Q4 numbers &lt;b&gt;inside&lt;/b&gt;');
    expect(doc.html).not.toContain('<b>inside');
  });

  it('says which files the malware scan has not cleared: removed (with the finding), being checked, not checkable, too large to scan', () => {
    const files = [
      {
        fileId: 'f1',
        fileName: 'invoice.pdf.exe',
        size: 68,
        scan: 'removed',
        finding: 'EICAR-Test-File (not a virus)',
      },
      { fileId: 'f2', fileName: 'fresh.mov', size: 10, scan: 'pending' },
      { fileId: 'f3', fileName: 'odd.bin', size: 10, scan: 'error' },
      { fileId: 'f4', fileName: 'clean.txt', size: 10 },
      { fileId: 'f5', fileName: 'archive.tar', size: 100e9 + 1, scan: 'unscanned' },
    ] as const;
    const doc = renderHtml(
      i18n,
      <MemoryRouter>
        <TransferView detail={{ ...DETAIL, files }} />
      </MemoryRouter>,
    );
    const text = doc.text();
    expect(text).toContain('invoice.pdf.exe Removed by the malware scan · EICAR-Test-File (not a virus)');
    expect(text).toContain('fresh.mov Being checked for malware…');
    expect(text).toContain("odd.bin Could not be checked for malware: recipients can't download it");
    expect(text).toContain(
      "archive.tar Not scanned: larger than 100 GB, the malware scanner's limit; recipients can download it",
    );
    expect(doc.html.match(/data-testid="transfer-file-scan"/gu)).toHaveLength(4);
  });

  it('a file sent again shows its current version as v2, the older one under it, and the sender its action', () => {
    const files = [
      { fileId: 'f000000001', fileName: 'logo.png', size: 10 },
      { fileId: 'f000000002', fileName: 'brief.txt', size: 20 },
      { fileId: 'f000000003', fileName: 'logo-final.png', size: 30, version: 2, versionOf: 'f000000001' },
    ];
    const doc = renderHtml(
      i18n,
      <MemoryRouter>
        <TransferView detail={{ ...DETAIL, files }} onChanged={async () => undefined} />
      </MemoryRouter>,
    );
    const text = doc.text();
    expect(text).toContain('2 files');
    expect(text).toContain('logo-final.png v2');
    expect(text).toContain('v1 · logo.png');
    expect(doc.html.match(/data-testid="transfer-file-version"/gu)).toHaveLength(1);
    expect(doc.html).toContain('aria-label="Earlier versions of logo-final.png"');
    // one labelled action per file (its current version), for the sender only
    expect(doc.html.match(/data-testid="send-new-version"/gu)).toHaveLength(2);
    expect(doc.html).toContain('aria-label="Send a new version of logo-final.png"');
    // an email send's recipients may be told; off until ticked
    expect(doc.has('new-version-notify')).toBe(true);
    expect(text).toContain('Email the recipients when a new version is uploaded');
    const linkSend = renderHtml(
      i18n,
      <MemoryRouter>
        <TransferView
          detail={{ ...DETAIL, files, sendAs: 'link', recipientsDetail: [] }}
          onChanged={async () => undefined}
        />
      </MemoryRouter>,
    );
    expect(linkSend.has('send-new-version')).toBe(true);
    expect(linkSend.has('new-version-notify')).toBe(false);
    const readOnly = renderHtml(
      i18n,
      <MemoryRouter>
        <TransferView detail={{ ...DETAIL, files }} />
      </MemoryRouter>,
    );
    expect(readOnly.has('send-new-version')).toBe(false);
    expect(readOnly.text()).toContain('logo-final.png v2');
  });

  it('a deleted transfer shows no link or QR code', () => {
    const doc = renderHtml(
      i18n,
      <MemoryRouter>
        <TransferView detail={{ ...DETAIL, state: 'deleted' }} />
      </MemoryRouter>,
    );
    expect(doc.has('transfer-link')).toBe(false);
    expect(doc.has('transfer-qr')).toBe(false);
    expect(doc.text()).toContain('Deleted');
  });

  it('the QR code is drawn from the module matrix, quiet zone included', () => {
    const { size, path } = qrPath('http://app.test/w/abc1234');
    // Version 2 (25 modules) for a link this long, plus 4 light modules each side.
    expect(size).toBe(25 + 8);
    expect(path).toMatch(/^(M\d+ \d+h1v1h-1z)+$/u);
    // The finder pattern's corner module is dark, right after the quiet zone.
    expect(path.startsWith('M4 4h1v1h-1z')).toBe(true);
  });
});
