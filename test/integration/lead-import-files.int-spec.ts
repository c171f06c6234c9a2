import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ImportRow } from '../../src/leads/application/lead-row-source';
import {
  NdjsonRejectedRowSink,
  leadFileFormatOf,
  openLeadRowSource,
  rejectedFileFor,
} from '../../src/leads/infrastructure/lead-import-files';

/** The file adapters of leads:import (X13): readers, line numbers, CSV typing, the rejected file. */
describe('lead import files', () => {
  let dir: string;
  beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'prm-files-'))));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  async function read(name: string, content: string | Buffer): Promise<ImportRow[]> {
    const path = join(dir, name);
    writeFileSync(path, content);
    const source = await openLeadRowSource(path, leadFileFormatOf(path)!);
    const rows: ImportRow[] = [];
    for await (const block of source.rows()) rows.push(...block);
    expect(source.position()).toEqual({
      bytesRead: Buffer.byteLength(content),
      totalBytes: Buffer.byteLength(content),
    });
    return rows;
  }

  it('tells the format by the extension, in any case', () => {
    expect(
      ['a.csv', 'a.CSV', 'a.ndjson', 'a.JSONL', 'a.json', 'a', 'csv', 'in/.csv', '.Jsonl', 'csv.d/x'].map(
        leadFileFormatOf,
      ),
    ).toEqual(['csv', 'csv', 'ndjson', 'ndjson', null, null, null, 'csv', 'ndjson', null]);
    expect(rejectedFileFor('in/leads.csv')).toBe('in/leads.csv.rejected.ndjson');
  });

  it('NDJSON: BOM, CRLF, blank lines, a last line without newline, bad JSON and non-objects', async () => {
    const rows = await read(
      'a.ndjson',
      '\uFEFF{"firstName":"Ä"}\r\n\r\n  \n{"a":1,\n[1]\nnull\n{"leadAge":3}',
    );
    expect(rows.map((r) => [r.line, r.fields, r.readErrors.map((e) => e.field)])).toEqual([
      [1, { firstName: 'Ä' }, []],
      [4, null, ['']],
      [5, null, ['']],
      [6, null, ['']],
      [7, { leadAge: 3 }, []],
    ]);
    expect(rows[1]!.original).toBe('{"a":1,');
    expect(rows[2]!.readErrors[0]!.error).toBe('must be a JSON object');
  });

  it('NDJSON: rows spanning read blocks and multi-byte characters cut by a block end', async () => {
    const name = 'é'.repeat(200_000); // 400,000 bytes: more than one 256 KiB block
    const rows = await read('big.ndjson', `${JSON.stringify({ firstName: name })}\n{"firstName":"x"}\n`);
    expect(rows.map((r) => [r.line, (r.fields!.firstName as string).length])).toEqual([
      [1, 200_000],
      [2, 1],
    ]);
  });

  it('CSV: typed cells, empty cells left out, unknown columns ignored (D5)', async () => {
    const rows = await read(
      'typed.csv',
      'firstName,lastName,source,status,leadAge,colour\nAda,,7,007,12,red\n  ,x,-1,1.5,abc,\n',
    );
    expect(rows.map((r) => [r.line, r.fields, r.readErrors])).toEqual([
      [2, { firstName: 'Ada', source: 7, status: 7, leadAge: 12 }, []],
      [
        3,
        { firstName: '  ', lastName: 'x' },
        ['source', 'status', 'leadAge'].map((field) => ({
          field,
          error: 'must be an integer written in decimal digits',
        })),
      ],
    ]);
    expect(rows[1]!.original).toEqual({
      firstName: '  ',
      lastName: 'x',
      source: '-1',
      status: '1.5',
      leadAge: 'abc',
      colour: '',
    });
  });

  it.each([
    ['LF', '\n'],
    ['CRLF', '\r\n'],
  ])(
    'CSV with %s: the line each record starts on, across quoted line breaks and bad records',
    async (_name, eol) => {
      const csv = [
        '\uFEFFfirstName,city',
        `"two${eol}lines",a`,
        'b,c',
        'short',
        '',
        `"x${eol}${eol}y",d`,
        'e,f',
        // a quoted cell closed, then more text: rejected, and the next record read normally
        '"Acme" Inc,h',
        'i,j',
        `"two${eol}lines" x,k`,
        'l,m',
        '"open,g',
        'n,o',
        '',
      ].join(eol);
      const rows = await read(`lines-${_name}.csv`, csv);
      expect(rows.map((r) => [r.line, r.fields?.firstName ?? r.readErrors[0]!.error])).toEqual([
        [2, `two${eol}lines`],
        [4, 'b'],
        [5, 'Invalid Record Length: columns length is 2, got 1'],
        [7, `x${eol}${eol}y`],
        [10, 'e'],
        [11, expect.stringMatching(/^Invalid Closing Quote/)],
        [12, 'i'],
        [13, expect.stringMatching(/^Invalid Closing Quote/)],
        [15, 'l'],
        [16, expect.stringMatching(/^Quote Not Closed/)],
      ]);
      expect(rows[2]!.original).toBe('short');
      expect(rows[5]!.original).toBe('"Acme" Inc,h');
      expect(rows[7]!.original).toBe(`"two${eol}lines" x,k`);
    },
  );

  it('CSV: LF and CRLF mixed in one file each end a record, and no CR is left in a cell', async () => {
    const rows = await read('mixed-a.csv', 'firstName,companyName\nA,C\r\nB,C\nD,C\r\n');
    expect(rows.map((r) => [r.line, r.fields])).toEqual([
      [2, { firstName: 'A', companyName: 'C' }],
      [3, { firstName: 'B', companyName: 'C' }],
      [4, { firstName: 'D', companyName: 'C' }],
    ]);
    const other = await read('mixed-b.csv', 'firstName,companyName\r\nA,C\nB,"two\r\nlines"\r\nD,C\n');
    expect(other.map((r) => [r.line, r.fields])).toEqual([
      [2, { firstName: 'A', companyName: 'C' }],
      [3, { firstName: 'B', companyName: 'two\r\nlines' }],
      [5, { firstName: 'D', companyName: 'C' }],
    ]);
  });

  it.each([
    ['a lone CR outside quotes', 'A\rb,c,d'],
    ['a CR inside quotes', '"A\rb",c,d'],
  ])(
    'CSV: a bad record holding %s is numbered by its first line, and so are the records after it',
    async (_case, bad) => {
      for (const eol of ['\n', '\r\n']) {
        const rows = await read(
          'lone-cr.csv',
          ['firstName,lastName', bad, 'Bob,Ray', 'C\rd,e', 'Eve,F', ''].join(eol),
        );
        expect(rows.map((r) => [r.line, r.fields?.firstName ?? r.readErrors[0]!.error])).toEqual([
          [2, 'Invalid Record Length: columns length is 2, got 3'],
          [3, 'Bob'],
          [4, 'C\rd'],
          [5, 'Eve'],
        ]);
      }
    },
  );

  it('CSV: a quote inside a cell that was not quoted rejects the record with its whole text', async () => {
    const rows = await read('stray.csv', 'firstName,city\na"b,c\nd,e\n');
    expect(rows.map((r) => [r.line, r.fields?.firstName ?? r.readErrors[0]!.error])).toEqual([
      [2, expect.stringMatching(/^Invalid Opening Quote/)],
      [3, 'd'],
    ]);
    expect(rows[0]!.original).toBe('a"b,c');
  });

  it.each([
    ['CSV', 'big.csv', (pad: string) => `firstName,city\na,b\nc,"${pad}"\nd,e\n`, 4],
    [
      'CSV, a quoted cell over several lines',
      'big-lines.csv',
      (pad: string) => `firstName,city\na,b\nc,"x\n${pad}\ny"\nd,e\n`,
      6,
    ],
    [
      'NDJSON',
      'big.ndjson',
      (pad: string) => `{"firstName":"a"}\n{"firstName":"c","pad":"${pad}"}\n{"firstName":"d"}\n`,
      3,
    ],
  ])(
    '%s: a record over 1 MiB is rejected as POST refuses such a body (D6), with its first 1 KiB, and the next is read',
    async (_case, name, content, nextLine) => {
      const rows = await read(name, content('é'.repeat(600_000)));
      expect(rows.map((r) => [r.line, r.fields?.firstName ?? r.readErrors[0]!.error])).toEqual([
        [rows[0]!.line, 'a'],
        [
          rows[0]!.line + 1,
          `the ${name.endsWith('.csv') ? 'record' : 'line'} is larger than 1048576 bytes, the limit of a request body`,
        ],
        [nextLine, 'd'],
      ]);
      const kept = rows[1]!.original as string;
      expect(Buffer.byteLength(kept)).toBeLessThanOrEqual(1024 + 3);
      expect(kept.endsWith('…')).toBe(true);
      expect(kept.includes('\uFFFD')).toBe(false);
    },
  );

  it('NDJSON: a line of exactly 1 MiB is read; a row nested deeper than 32 levels is rejected whole (D6)', async () => {
    const start = '{"firstName":"a","pad":"';
    const exact = `${start}${'x'.repeat(1_048_576 - start.length - 2)}"}`;
    const deep = `{"firstName":"b","deep":${'['.repeat(2000)}${']'.repeat(2000)}}`;
    const rows = await read(
      'limits.ndjson',
      `${exact}\r\n${deep}\n{"firstName":"c","ok":${'['.repeat(31)}${']'.repeat(31)}}\n`,
    );
    expect(rows.map((r) => [r.line, r.fields?.firstName ?? r.readErrors[0]!.error])).toEqual([
      [1, 'a'],
      [2, 'the row is nested more than 32 levels deep'],
      [3, 'c'],
    ]);
    expect(rows[1]!.original).toBe(deep);
  });

  it('CSV and NDJSON: the 1 MiB limit counts neither the line end nor the byte order mark', async () => {
    const limit = 1_048_576;
    const cell = (size: number) => `a,${'x'.repeat(size - 2)}`; // a record of `size` bytes
    for (const eol of ['\n', '\r\n']) {
      // records of exactly the limit and of one byte over, each spanning read blocks
      const rows = await read(
        `limit${eol.length}.csv`,
        `firstName,city${eol}${cell(limit)}${eol}${cell(limit + 1)}${eol}b,c${eol}`,
      );
      expect(rows.map((r) => [r.line, r.fields?.firstName ?? r.readErrors[0]!.error])).toEqual([
        [2, 'a'],
        [3, 'the record is larger than 1048576 bytes, the limit of a request body'],
        [4, 'b'],
      ]);
    }
    // a record of exactly the limit whose CR is the last byte of a 256 KiB read block (the 5th):
    // 131,063 blank lines and the header put its start at byte 262,143
    const blank = '\r\n'.repeat(131_063);
    const boundary = await read('boundary.csv', `${blank}firstName,state\r\n${cell(limit)}\r\nb,c\r\n`);
    expect(boundary.map((r) => [r.line, r.fields?.firstName ?? r.readErrors[0]!.error])).toEqual([
      [131_065, 'a'],
      [131_066, 'b'],
    ]);
    const start = '{"firstName":"a","pad":"';
    const exact = `${start}${'x'.repeat(limit - start.length - 2)}"}`;
    const rows = await read('bom-limit.ndjson', `\uFEFF${exact}`);
    expect(rows.map((r) => [r.line, r.fields?.firstName ?? r.readErrors[0]!.error])).toEqual([[1, 'a']]);
  });

  it('CSV: a header over 1 MiB, or lines ending in CR alone, stop the run with a message', async () => {
    for (const [name, content, message] of [
      [
        'big-header.csv',
        `firstName,${'x'.repeat(1_100_000)}\na,b\n`,
        'the header row is larger than 1048576 bytes',
      ],
      [
        'cr.csv',
        'firstName,lastName\rAnn,Lee\rBob,Ray\r',
        'the lines of the file end in CR alone: save it with LF or CRLF line ends',
      ],
    ]) {
      await expect(read(name!, content!)).rejects.toThrow(message!);
    }
  });

  it('CSV and NDJSON: a row that is not UTF-8 is rejected, not imported with U+FFFD (D14)', async () => {
    const csv = Buffer.concat([
      Buffer.from('\nfirstName,city\na,b\n"c'),
      Buffer.from([0xff]),
      Buffer.from('",d\ne,f\n'),
    ]);
    const csvRows = await read('bytes.csv', csv);
    // a blank line before the header is skipped, as the parser skips it
    expect(csvRows.map((r) => [r.line, r.fields?.firstName ?? r.readErrors[0]!.error])).toEqual([
      [3, 'a'],
      [4, 'the record is not UTF-8 text'],
      [5, 'e'],
    ]);
    const ndjson = Buffer.concat([
      Buffer.from('{"firstName":"a"}\n{"firstName":"n'),
      Buffer.from([0xc3, 0x28]),
      Buffer.from('"}\n{"firstName":"ü"}\n'),
    ]);
    const ndjsonRows = await read('bytes.ndjson', ndjson);
    expect(ndjsonRows.map((r) => [r.line, r.fields?.firstName ?? r.readErrors[0]!.error])).toEqual([
      [1, 'a'],
      [2, 'the line is not UTF-8 text'],
      [3, 'ü'],
    ]);
  });

  it('the rejected file: created with the first row, one JSON object a line; none, and a stale one removed, without', async () => {
    const path = join(dir, 'out.rejected.ndjson');
    const sink = new NdjsonRejectedRowSink(path);
    for (let line = 1; line <= 3000; line++) {
      await sink.write({
        line,
        message: 'VALIDATION_FAILED',
        errors: [{ field: 'x', error: 'é' }],
        row: { line },
      });
    }
    expect(await sink.close(true)).toBe(path);
    const lines = readFileSync(path, 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(3000);
    expect(JSON.parse(lines[2999]!)).toEqual({
      line: 3000,
      message: 'VALIDATION_FAILED',
      errors: [{ field: 'x', error: 'é' }],
      row: { line: 3000 },
    });

    // a run that stopped on an error before rejecting anything leaves the earlier file alone
    expect(await new NdjsonRejectedRowSink(path).close(false)).toBeNull();
    expect(readFileSync(path, 'utf8').trimEnd().split('\n')).toHaveLength(3000);
    expect(await new NdjsonRejectedRowSink(path).close(true)).toBeNull();
    expect(existsSync(path)).toBe(false);
  });
});
