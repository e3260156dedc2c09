import { describe, expect, it } from 'vitest';
import { csvCell, formatCsv, parseCsv, unescapeFormulaCell } from '../../../functions/domain/csv';
import { contactsCsv, detectColumns, readContactsCsv } from '../../../functions/domain/contacts-csv';
import { addContactSchema, cleanContactText, contactKeyOf } from '../../../functions/domain/contacts-api';

describe('parseCsv (RFC 4180)', () => {
  it('splits fields on commas and rows on CRLF, LF or CR, with or without a last line end', () => {
    expect(parseCsv('a,b\r\nc,d\r\n').rows).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
    expect(parseCsv('a,b\nc,d').rows).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
    expect(parseCsv('a,b\rc,d\r').rows).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
    expect(parseCsv('a,,c\n').rows).toEqual([['a', '', 'c']]);
    expect(parseCsv('a,\n').rows).toEqual([['a', '']]);
  });

  it('reads quoted fields with commas, line breaks and doubled quotes', () => {
    const parsed = parseCsv('"Lopez, Maria","line one\r\nline two","say ""hi"""\n');
    expect(parsed.rows).toEqual([['Lopez, Maria', 'line one\r\nline two', 'say "hi"']]);
    expect(parsed.unterminated).toBe(false);
  });

  it('skips a UTF-8 BOM and keeps text in any script', () => {
    expect(parseCsv('\uFEFFemail,name\nli@example.cn,李雷\n').rows).toEqual([
      ['email', 'name'],
      ['li@example.cn', '李雷'],
    ]);
  });

  it('keeps blank lines as rows (they are rows without an email) and an empty quoted field as empty', () => {
    expect(parseCsv('a\n\nb\n').rows).toEqual([['a'], [''], ['b']]);
    expect(parseCsv('"",x\n').rows).toEqual([['', 'x']]);
  });

  it('tells an unclosed quote and stops after the row cap', () => {
    expect(parseCsv('a,"never closed\nb,c').unterminated).toBe(true);
    const capped = parseCsv('1\n2\n3\n4\n', 2);
    expect(capped).toEqual({ rows: [['1'], ['2']], unterminated: false, truncated: true });
    expect(parseCsv('1\n2\n', 2).truncated).toBe(false);
  });

  it('keeps a quote inside an unquoted field as text', () => {
    expect(parseCsv('ab"c,d\n').rows).toEqual([['ab"c', 'd']]);
  });
});

describe('csvCell and formatCsv', () => {
  it('quotes what needs quoting and doubles quotes', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('Lopez, Maria')).toBe('"Lopez, Maria"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell(' padded ')).toBe('" padded "');
  });

  it('defuses cells a spreadsheet would run as formulas (= + - @, tab, CR)', () => {
    for (const v of ['=HYPERLINK("http://evil")', '+1+1', '-2', '@SUM(A1)', '\tx', '\rx'])
      expect(csvCell(v).replace(/^"/u, '').startsWith("'"), v).toBe(true);
    expect(csvCell('=1+1')).toBe("'=1+1");
    expect(csvCell('=A1,B1')).toBe(`"'=A1,B1"`);
    expect(unescapeFormulaCell("'=1+1")).toBe('=1+1');
    expect(unescapeFormulaCell("'plain")).toBe("'plain");
  });

  it('writes CRLF rows after a BOM, and parses back to the same values', () => {
    const rows = [
      ['email', 'name', 'company'],
      ['a@x.com', 'Lopez, Maria', 'say "hi"'],
      ['b@x.com', '', 'multi\nline'],
    ];
    const text = formatCsv(rows);
    expect(text.startsWith('\uFEFFemail,name,company\r\n')).toBe(true);
    expect(text.endsWith('\r\n')).toBe(true);
    expect(parseCsv(text).rows).toEqual(rows);
  });
});

describe('contacts in CSV', () => {
  it('finds the email, name and company columns of a header in any order and spelling', () => {
    expect(detectColumns(['Company', 'E-mail Address', 'Full Name'])).toEqual({
      email: 1,
      name: 2,
      company: 0,
      header: true,
    });
    expect(detectColumns(['Name', 'E-mail 1 - Value', 'Organization 1 - Name'])).toEqual({
      email: 1,
      name: 0,
      company: 2,
      header: true,
    });
    expect(detectColumns(['First Name', 'Last Name', 'Work Email (primary)'])).toEqual({
      email: 2,
      first: 0,
      last: 1,
      header: true,
    });
    expect(detectColumns(['EMAIL'])).toEqual({ email: 0, header: true });
  });

  it('without a header, takes the first address-like cell as the email and the others as name and company', () => {
    expect(detectColumns(['Maria', 'maria@acme.com', 'Acme'])).toEqual({
      email: 1,
      name: 0,
      company: 2,
      header: false,
    });
    expect(detectColumns(['maria@acme.com'])).toEqual({ email: 0, header: false });
    expect(detectColumns(['just', 'words'])).toBeUndefined();
  });

  it('reads entries with 1-based lines, joins first and last names, and keeps rows without an email', () => {
    const read = readContactsCsv(
      'First Name,Last Name,Email,Company\nAda,Lovelace,ada@x.com,Engines\n,,,\nNo,Mail,,Acme\n',
      10,
    );
    expect(read).toEqual({
      ok: true,
      truncated: false,
      entries: [
        { line: 2, email: 'ada@x.com', name: 'Ada Lovelace', company: 'Engines' },
        { line: 3, email: '', name: '', company: '' },
        { line: 4, email: '', name: 'No Mail', company: 'Acme' },
      ],
    });
  });

  it('refuses an empty file, one without an email column, an unclosed quote; tells a file over the row cap', () => {
    expect(readContactsCsv('\n\n', 10)).toEqual({ ok: false, reason: 'empty' });
    expect(readContactsCsv('name,company\nAda,Engines\n', 10)).toEqual({ ok: false, reason: 'no_email_column' });
    expect(readContactsCsv('email\n"a@x.com\n', 10)).toEqual({ ok: false, reason: 'unterminated' });
    const many = `email\n${Array.from({ length: 5 }, (_, i) => `u${i}@x.com`).join('\n')}\n`;
    expect(readContactsCsv(many, 4)).toMatchObject({ ok: true, truncated: true });
    expect(readContactsCsv(many, 5)).toMatchObject({ ok: true, truncated: false });
  });

  it('exports a header and formula-safe rows that read back to the same contacts', () => {
    const contacts = [
      { email: 'Bob@X.com', name: '=cmd|calc', company: 'Lopez, "Quoted" & Co' },
      { email: 'li@example.cn', name: '李雷' },
    ];
    const text = contactsCsv(contacts);
    expect(text).toContain(`Bob@X.com,'=cmd|calc,"Lopez, ""Quoted"" & Co"`);
    const read = readContactsCsv(text, 10);
    expect(read.ok && read.entries).toEqual([
      { line: 2, email: 'Bob@X.com', name: '=cmd|calc', company: 'Lopez, "Quoted" & Co' },
      { line: 3, email: 'li@example.cn', name: '李雷', company: '' },
    ]);
  });
});

describe('contact fields', () => {
  it('keys an address lower-cased and keeps it as typed for display', () => {
    expect(contactKeyOf('  Bob@X.com ')).toBe('bob@x.com');
    expect(addContactSchema.parse({ email: ' Bob@X.com ' }).email).toBe('Bob@X.com');
  });

  it('refuses invalid addresses with the domain codes and cleans names of control characters', () => {
    expect(addContactSchema.safeParse({ email: 'not-an-email' }).error?.issues[0]?.message).toBe('invalid_email');
    expect(addContactSchema.safeParse({ email: '' }).error?.issues[0]?.message).toBe('email_required');
    expect(addContactSchema.parse({ email: 'a@x.com', name: 'Ada\nLovelace\u0000 ' }).name).toBe('Ada Lovelace');
    expect(addContactSchema.safeParse({ email: 'a@x.com', company: 'x'.repeat(201) }).success).toBe(false);
    expect(cleanContactText(`  ${'y'.repeat(300)}`)).toHaveLength(200);
  });
});
