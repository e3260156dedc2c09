/**
 * The operator's abuse queue: `list`, `show <slug>`, `disable <slug>`, `enable <slug>`.
 * Reads the table the environment names (the running local stack, or an AWS deployment's table
 * with the operator's credentials); prints plain text tables.
 */
import { listAbuseReports, type AbuseReportRecord } from '../../functions/data/abuse';
import { getTransfer, listFiles } from '../../functions/data/transfers';
import { disableTransfer, enableTransfer } from '../../functions/services/abuse';
import { SLUG_PATTERN } from '../../functions/domain/id-patterns';

export const USAGE = [
  'npm run abuse -- list              the queue: every report, oldest first',
  'npm run abuse -- show <slug>       one transfer: its state, files, scan results and reports',
  'npm run abuse -- disable <slug>    its link answers 410 "disabled after a report"; nothing is deleted',
  'npm run abuse -- enable <slug>     serve it again',
].join('\n');

function table(head: readonly string[], rows: readonly (readonly string[])[]): string[] {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)];
}

const oneLine = (s: string | undefined, max = 60) => {
  const flat = (s ?? '').replace(/\s+/gu, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

function reportRows(reports: readonly AbuseReportRecord[]): string[][] {
  return reports.map((r) => [
    new Date(r.createdAt).toISOString().slice(0, 19).replace('T', ' '),
    r.slug,
    r.reason,
    r.reporterEmail ?? '-',
    r.sourceIp,
    oneLine(r.details) || '-',
  ]);
}

const REPORT_HEAD = ['when (UTC)', 'transfer', 'reason', 'reporter', 'ip', 'details'];

function slugArg(args: readonly string[]): string {
  const slug = args[1];
  if (!slug || !SLUG_PATTERN.test(slug)) throw new Error(`give a transfer's 7-character id\n${USAGE}`);
  return slug;
}

export async function runAbuseCommand(args: readonly string[]): Promise<string[]> {
  const [cmd] = args;
  switch (cmd) {
    case 'list': {
      const reports = await listAbuseReports();
      if (reports.length === 0) return ['No abuse reports.'];
      const disabled = new Map<string, boolean>();
      for (const slug of new Set(reports.map((r) => r.slug)))
        disabled.set(slug, (await getTransfer(slug))?.disabledAt !== undefined);
      return table(
        [...REPORT_HEAD, 'disabled'],
        reportRows(reports).map((row, i) => [...row, disabled.get(reports[i]!.slug) ? 'yes' : 'no']),
      );
    }
    case 'show': {
      const slug = slugArg(args);
      const t = await getTransfer(slug);
      if (!t) throw new Error(`no transfer ${slug}`);
      const files = await listFiles(slug);
      const reports = await listAbuseReports(slug);
      return [
        `transfer ${slug}: ${t.status}${t.disabledAt !== undefined ? `, DISABLED since ${new Date(t.disabledAt).toISOString()}` : ''}`,
        `sender ${t.senderEmail}${t.senderId ? ` (user ${t.senderId})` : ' (guest)'}, region ${t.region}${t.anon ? ' (anon bucket)' : ''}, scan ${t.scanState ?? 'clean'}`,
        `expires ${new Date(t.expiryDate).toISOString()}, ${t.totalDownloads} download(s)`,
        '',
        ...table(
          ['file', 'name', 'bytes', 'scan', 'finding', 'key'],
          files.map((f) => [
            f.fileId,
            oneLine(f.fileName, 40),
            String(f.size),
            f.scanStatus ?? 'clean',
            f.scanFinding ?? '-',
            f.scanStatus === 'infected' ? `q/${slug}/${f.fileId}` : f.key,
          ]),
        ),
        '',
        ...(reports.length ? table(REPORT_HEAD, reportRows(reports)) : ['No reports.']),
      ];
    }
    case 'disable': {
      const slug = slugArg(args);
      if (!(await disableTransfer(slug))) throw new Error(`no transfer ${slug}`);
      return [`Disabled ${slug}: its link answers 410; its files and reports are kept.`];
    }
    case 'enable': {
      const slug = slugArg(args);
      if (!(await enableTransfer(slug))) throw new Error(`no transfer ${slug}`);
      return [`Enabled ${slug} again.`];
    }
    default:
      throw new Error(USAGE);
  }
}
