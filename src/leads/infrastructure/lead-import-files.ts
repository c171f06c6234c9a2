import { createReadStream } from 'node:fs';
import { access, constants, rm, stat, open, FileHandle } from 'node:fs/promises';
import { basename } from 'node:path';
import { isUtf8 } from 'node:buffer';
import { CsvError, parse } from 'csv-parse';
import { FieldError } from '../../shared/domain/domain-error';
import { BODY_LIMIT_BYTES, MAX_NESTING, nestingDepth } from '../../shared/domain/json-limits';
import { ImportRow, LeadRowSource } from '../application/lead-row-source';
import { RejectedRow, RejectedRowSink } from '../application/rejected-row-sink';
import { ID_FIELDS, WRITABLE_FIELDS } from '../domain/lead-details';

/** X13's file formats, told apart by the file's extension. */
export type LeadFileFormat = 'csv' | 'ndjson';

export function leadFileFormatOf(path: string): LeadFileFormat | null {
  // the name's ending, not extname(), which sees no extension in a name such as `.csv`
  const name = basename(path).toLowerCase();
  if (name.endsWith('.csv')) return 'csv';
  if (name.endsWith('.ndjson') || name.endsWith('.jsonl')) return 'ndjson';
  return null;
}

/** Where the rejected rows of an import of `path` go (X13). */
export function rejectedFileFor(path: string): string {
  return `${path}.rejected.ndjson`;
}

/** The reader for the file; fails (ENOENT, EACCES, EISDIR) before anything is imported. */
export async function openLeadRowSource(path: string, format: LeadFileFormat): Promise<LeadRowSource> {
  const info = await stat(path);
  if (!info.isFile()) throw new Error(`${path} is not a file`);
  await access(path, constants.R_OK);
  return format === 'csv' ? new CsvLeadRowSource(path, info.size) : new NdjsonLeadRowSource(path, info.size);
}

/** Reads the file as a stream of bytes and counts them for the progress display. */
abstract class FileRowSource extends LeadRowSource {
  private bytesRead = 0;

  constructor(
    protected readonly path: string,
    private readonly totalBytes: number,
  ) {
    super();
  }

  position(): { bytesRead: number; totalBytes: number } {
    return { bytesRead: this.bytesRead, totalBytes: this.totalBytes };
  }

  /** The file's blocks, in order, each counted as read. */
  protected async *blocks(): AsyncIterable<Buffer> {
    for await (const block of createReadStream(this.path, { highWaterMark: 256 * 1024 })) {
      this.bytesRead += (block as Buffer).length;
      yield block as Buffer;
    }
  }
}

const unreadable = (line: number, original: unknown, error: string): ImportRow => ({
  line,
  fields: null,
  original,
  readErrors: [{ field: '', error }],
});

/** One NDJSON line as a row; null for a blank line, which is not a row. */
function ndjsonRow(text: string, line: number): ImportRow | null {
  if (text.trim() === '') return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return unreadable(line, text, `not valid JSON: ${(error as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return unreadable(line, value, 'must be a JSON object');
  }
  // D6, as POST refuses such a body; the text, not the value, goes to the rejected file
  if (nestingDepth(value) > MAX_NESTING) {
    return unreadable(line, text, `the row is nested more than ${MAX_NESTING} levels deep`);
  }
  return { line, fields: value as Record<string, unknown>, original: value, readErrors: [] };
}

const NEWLINE = 0x0a;
const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);
/** What of a line over the size limit the rejected file keeps: its first 1 KiB. */
const PREVIEW_BYTES = 1024;
const tooLarge = (what: 'line' | 'record') =>
  `the ${what} is larger than ${BODY_LIMIT_BYTES} bytes, the limit of a request body`;

/** The first PREVIEW_BYTES of `data` from `start`, cut at a character boundary, and an ellipsis. */
function preview(data: Buffer, start: number): string {
  let end = Math.min(data.length, start + PREVIEW_BYTES);
  while (end > start && end < data.length && (data[end]! & 0xc0) === 0x80) end -= 1;
  return `${data.toString('utf8', start, end)}…`;
}

/**
 * NDJSON / JSON Lines: one JSON object per line, exactly as POST leads' body (D16, D17: JSON types
 * are kept, a wrong one is the validation's error). A line that is not JSON, or JSON that is not an
 * object, is rejected as a whole with field "" (POST answers such a body INVALID_REQUEST), and so is
 * a line POST would refuse for its size or depth (D6): over 1 MiB, or nested more than 32 levels.
 * Blank lines are not rows; a UTF-8 byte order mark and CR of CRLF line ends are dropped.
 *
 * Lines are cut on the newline byte of each block read (UTF-8 never has that byte inside a
 * character), each block's rows yielded together. A line that grows past the size limit is not
 * kept: its bytes are skipped up to its newline, so memory stays bounded whatever the file holds.
 */
export class NdjsonLeadRowSource extends FileRowSource {
  async *rows(): AsyncIterable<ImportRow[]> {
    let line = 0;
    let rest: Buffer | null = null;
    /** the line over the size limit being skipped: its row, yielded once its newline is read */
    let skipping: ImportRow | null = null;
    const rowOf = (data: Buffer, start: number, end: number): ImportRow | null => {
      line += 1;
      if (line === 1 && data.subarray(start, start + 3).equals(UTF8_BOM)) start += 3;
      if (end > start && data[end - 1] === 0x0d) end -= 1;
      if (end - start > BODY_LIMIT_BYTES) return unreadable(line, preview(data, start), tooLarge('line'));
      // decoding other bytes would import U+FFFD instead of what was sent, which POST refuses (D14)
      if (!isUtf8(data.subarray(start, end))) {
        return unreadable(line, data.toString('utf8', start, end), 'the line is not UTF-8 text');
      }
      return ndjsonRow(data.toString('utf8', start, end), line);
    };
    for await (const chunk of this.blocks()) {
      const rows: ImportRow[] = [];
      let data: Buffer = chunk;
      let start = 0;
      if (skipping) {
        const end = chunk.indexOf(NEWLINE);
        if (end === -1) continue;
        rows.push(skipping);
        skipping = null;
        start = end + 1;
      } else if (rest) data = Buffer.concat([rest, chunk]);
      for (let end = data.indexOf(NEWLINE, start); end !== -1; end = data.indexOf(NEWLINE, start)) {
        const row = rowOf(data, start, end);
        if (row) rows.push(row);
        start = end + 1;
      }
      rest = start < data.length ? data.subarray(start) : null;
      // + 1: the line's CR, dropped when it ends in CRLF; + 3: the first line's byte order mark
      const allowance = 1 + (line === 0 && rest?.subarray(0, 3).equals(UTF8_BOM) ? 3 : 0);
      if (rest && rest.length > BODY_LIMIT_BYTES + allowance) {
        line += 1;
        skipping = unreadable(line, preview(rest, 0), tooLarge('line'));
        rest = null;
      }
      if (rows.length > 0) yield rows;
    }
    const last = skipping ?? (rest ? rowOf(rest, 0, rest.length) : null);
    if (last) yield [last];
  }
}

const LEAD_FIELDS = new Set<string>(WRITABLE_FIELDS);
const NUMBER_FIELDS = new Set<string>([...ID_FIELDS, 'leadAge']);
const DIGITS = /^[0-9]+$/;

/**
 * A CSV cell is text, so the columns are typed here (X13):
 * - an empty cell is a field left out (null); a blank one ("  ") is text, and blank is refused
 *   where a value is required (D14);
 * - `source`, `status` and `leadAge` written as plain decimal digits are numbers; anything else
 *   in them is an error naming the field, and the field is left to that error;
 * - every other column is text as written; columns that are not lead fields are ignored (D5).
 */
export function typeCsvRecord(record: Record<string, string>): {
  fields: Record<string, unknown>;
  readErrors: FieldError[];
} {
  const fields: Record<string, unknown> = {};
  const readErrors: FieldError[] = [];
  for (const name of Object.keys(record)) {
    const text = record[name]!;
    if (text === '' || !LEAD_FIELDS.has(name)) continue;
    if (!NUMBER_FIELDS.has(name)) fields[name] = text;
    else if (DIGITS.test(text)) fields[name] = Number(text);
    else readErrors.push({ field: name, error: 'must be an integer written in decimal digits' });
  }
  return { fields, readErrors };
}

function count(text: string, char: string): number {
  let found = 0;
  for (let at = text.indexOf(char); at !== -1; at = text.indexOf(char, at + 1)) found += 1;
  return found;
}

/**
 * Lines of a CSV file as an editor numbers them (a line ends with LF or CRLF). csv-parse tells the
 * line a record ends on, counting a CR inside a quoted cell as a line of its own (a CRLF as two):
 * the CRs of the cells read so far are taken off, then the record's own LFs.
 */
class CsvLines {
  private carriageReturns = 0;

  recordStart(endLine: number, record: Record<string, string>): number {
    let newlines = 0;
    for (const name of Object.keys(record)) {
      const text = record[name]!;
      if (text.length === 0) continue;
      this.carriageReturns += count(text, '\r');
      newlines += count(text, '\n');
    }
    return endLine - this.carriageReturns - newlines;
  }

  /**
   * A skipped record has no cells; its text says how many lines it spans, and which of its CRs
   * csv-parse counted as lines of their own: those inside quotes (an unclosed quote holds every CR
   * after it) and those outside that no LF follows. They count for the records after it too.
   */
  skippedStart(endLine: number, raw: string | undefined): number {
    const text = (raw ?? '').replace(/^[\r\n]+/, '').replace(/\r?\n?$/, '');
    const counted = carriageReturnLines(raw ?? '');
    const start = endLine - this.carriageReturns - count(text, '\n') - counted;
    this.carriageReturns += counted;
    return start;
  }
}

/**
 * The CRs of `text` csv-parse counts as lines of their own: inside double quotes (a doubled quote
 * inside them closes and opens again), or outside them and followed by neither LF nor the end of
 * the text (a lone CR in a cell).
 */
function carriageReturnLines(text: string): number {
  let quoted = false;
  let found = 0;
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code === QUOTE) quoted = !quoted;
    // outside quotes, a CR at the end of the text is the record's CRLF, cut before its LF
    else if (code === CR && (quoted || (at + 1 < text.length && text.charCodeAt(at + 1) !== NEWLINE)))
      found += 1;
  }
  return found;
}

const QUOTE = 0x22;
const COMMA = 0x2c;
const CR = 0x0d;

/**
 * What csv-parse cannot get past, taken out before it reads the file: a record with a quoted cell
 * closed and then followed by something other than a comma or the line end (`"Acme" Inc`), a
 * record that is not UTF-8, a record with a quote inside a cell that was not quoted (`a"b`), and
 * a record over 1 MiB. csv-parse skips the first but stays inside the quote, so that it read every
 * later record as part of it (one rejected row for the rest of the file); it decodes the second
 * with U+FFFD in place of the bytes, which POST leads refuses (D14, docs/http-edge.md); it reports
 * the third with only the text before the quote; and it would hold the fourth whole in memory,
 * where POST refuses a body over 1 MiB (D6). Only the first 1 KiB of such a record is kept.
 *
 * The guard frames records as RFC 4180 does (a quote opens a quoted cell only at the start of a
 * cell; `""` inside one is a quote; a line end inside one is part of the cell) and hands the parser
 * each record as read, except such a record: its line ends alone, a blank line or lines, which the
 * parser skips (the lines it counts stay the file's). The record is rejected here, with the line it
 * starts on. A record with a bad closing quote ends at the end of the line the quote is on; the next
 * record is read normally. The header (the first record) is left to the parser.
 */
class CsvRecordGuard {
  private line = 1;
  private recordLine = 1;
  private records = 0;
  private quoted = false;
  /** in a quoted cell, right after a quote: the end of the cell, or the first of `""` */
  private quoteSeen = false;
  private cellStart = true;
  private badClosingQuote = false;
  private strayQuote = false;
  /** a CR outside quotes in the header, not yet known to be followed by LF */
  private crInHeader = false;
  private atFileStart = true;
  /** the current record's bytes from earlier blocks */
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /**
   * The current record grew past the size limit (D6): its bytes are no longer kept, only the start
   * of its text for the rejected file and its line ends, which the parser still needs to count.
   */
  private oversized: { preview: string; lineEnds: number } | null = null;

  constructor(private readonly rejected: (row: ImportRow) => void) {}

  /** The bytes of `chunk` the parser may read now; the current record's stay until it ends. */
  feed(chunk: Buffer): Buffer {
    let start = 0;
    if (this.atFileStart) {
      this.atFileStart = false;
      if (chunk.subarray(0, 3).equals(UTF8_BOM)) start = 3;
    }
    const out: Buffer[] = [];
    let recordStart = 0;
    for (let at = start; at < chunk.length; at++) {
      const byte = chunk[at]!;
      if (this.crInHeader) {
        this.crInHeader = false;
        if (byte !== NEWLINE) throw new Error(CR_LINE_ENDS);
      }
      if (this.quoted) {
        if (this.quoteSeen) {
          this.quoteSeen = false;
          if (byte === QUOTE) continue; // `""`: a quote inside the cell
          this.quoted = false; // the cell ended at the quote before; this byte follows it
          if (byte !== COMMA && byte !== NEWLINE && byte !== CR) this.badClosingQuote = true;
        } else {
          if (byte === QUOTE) this.quoteSeen = true;
          else if (byte === NEWLINE) this.line += 1;
          if (this.quoted) continue;
        }
      } else if (byte === QUOTE && this.cellStart && !this.badClosingQuote) {
        this.quoted = true;
        this.cellStart = false;
        continue;
      } else if (byte === QUOTE && !this.badClosingQuote) {
        this.strayQuote = true; // `a"b`: a quote inside a cell that was not quoted
      }
      if (byte === COMMA) this.cellStart = true;
      else if (byte === NEWLINE) {
        this.endRecord(chunk.subarray(recordStart, at + 1), out);
        recordStart = at + 1;
        this.line += 1;
        this.recordLine = this.line;
        this.cellStart = true;
      } else if (byte !== CR) this.cellStart = false;
      else if (this.records === 0) this.crInHeader = true; // a header line ending in CR alone?
    }
    if (recordStart < chunk.length) this.keep(chunk.subarray(recordStart));
    return out.length === 1 ? out[0]! : Buffer.concat(out);
  }

  /** Keeps a part of the current record, or, past the size limit, only what `oversized` needs. */
  private keep(part: Buffer): void {
    if (this.oversized) {
      this.oversized.lineEnds += newlines(part);
      return;
    }
    this.pending.push(part);
    this.pendingBytes += part.length;
    // + 1: a CR kept at a block's end may be the record's CRLF; the exact size is judged at its end
    if (this.pendingBytes <= BODY_LIMIT_BYTES + 1) return;
    if (this.records === 0) throw new Error(HEADER_TOO_LARGE);
    const bytes = Buffer.concat(this.pending);
    this.oversized = { preview: preview(bytes, 0), lineEnds: newlines(bytes) };
    this.pending = [];
    this.pendingBytes = 0;
  }

  /** The last record, which no line end closed. */
  end(): Buffer {
    if (this.quoteSeen) {
      this.quoted = false;
      this.quoteSeen = false;
    }
    const out: Buffer[] = [];
    if (this.pending.length > 0 || this.oversized) this.endRecord(Buffer.alloc(0), out);
    return Buffer.concat(out);
  }

  private endRecord(tail: Buffer, out: Buffer[]): void {
    if (this.oversized) return this.endOversized(tail, out);
    const bytes = this.pending.length === 0 ? tail : Buffer.concat([...this.pending, tail]);
    this.pending = [];
    this.pendingBytes = 0;
    if (withoutLineEnd(bytes) > BODY_LIMIT_BYTES) {
      if (this.records === 0) throw new Error(HEADER_TOO_LARGE);
      this.oversized = { preview: preview(bytes, 0), lineEnds: 0 };
      return this.endOversized(bytes, out);
    }
    // a blank line is no record (the parser skips it): the header is the first that is not blank
    if (bytes.length === 0 || bytes[0] === NEWLINE || (bytes[0] === CR && bytes[1] === NEWLINE)) {
      return void out.push(bytes);
    }
    this.records += 1;
    const bad = this.badClosingQuote;
    const stray = this.strayQuote;
    this.badClosingQuote = false;
    this.strayQuote = false;
    // an unclosed quote runs to the end of the file: the parser rejects that record itself
    if (this.records === 1 || this.quoted) return void out.push(bytes);
    const reason = bad
      ? 'Invalid Closing Quote: a quoted cell must be followed by a comma or the end of the line'
      : stray
        ? 'Invalid Opening Quote: a quote may only open a cell, or be doubled inside a quoted one'
        : isUtf8(bytes)
          ? null
          : 'the record is not UTF-8 text';
    if (reason === null) return void out.push(bytes);
    const text = bytes.toString('utf8').replace(/\r?\n$/, '');
    this.rejected(unreadable(this.recordLine, text, reason));
    out.push(lineEnds(bytes));
  }

  /** A record over the size limit: rejected as POST refuses such a body (D6), its lines kept blank. */
  private endOversized(tail: Buffer, out: Buffer[]): void {
    const { preview: text, lineEnds } = this.oversized!;
    this.oversized = null;
    this.records += 1;
    this.badClosingQuote = false;
    this.strayQuote = false;
    this.rejected(unreadable(this.recordLine, text, tooLarge('record')));
    out.push(Buffer.from('\n'.repeat(lineEnds + newlines(tail))));
  }
}

/** The size of a record without its LF or CRLF. */
function withoutLineEnd(bytes: Buffer): number {
  let size = bytes.length;
  if (size > 0 && bytes[size - 1] === NEWLINE) size -= 1;
  if (size > 0 && bytes[size - 1] === CR) size -= 1;
  return size;
}

const HEADER_TOO_LARGE = `the header row is larger than ${BODY_LIMIT_BYTES} bytes`;
const CR_LINE_ENDS = 'the lines of the file end in CR alone: save it with LF or CRLF line ends';

function newlines(bytes: Buffer): number {
  let found = 0;
  for (let at = bytes.indexOf(NEWLINE); at !== -1; at = bytes.indexOf(NEWLINE, at + 1)) found += 1;
  return found;
}

/** The line ends of `bytes` alone (LF, or CRLF), in order: blank lines, as many as it spans. */
function lineEnds(bytes: Buffer): Buffer {
  const ends: number[] = [];
  for (let at = 0; at < bytes.length; at++) {
    if (bytes[at] !== NEWLINE) continue;
    if (at > 0 && bytes[at - 1] === CR) ends.push(CR);
    ends.push(NEWLINE);
  }
  return Buffer.from(ends);
}

/** A record as csv-parse's on_record hands it on: its cells and the line it starts on. */
interface CsvRecord {
  record: Record<string, string>;
  line: number;
}

const byLine = (a: ImportRow, b: ImportRow) => a.line - b.line;

/**
 * CSV (RFC 4180, UTF-8, optional byte order mark) with a header row of Lead field names, exact
 * case. Nothing in the syntax is relaxed: a record with the wrong number of cells or a stray quote
 * is rejected as a whole with field "" and the parser's message, and the next record is read.
 * Blank lines are not records.
 *
 * Each block of the file is written to the parser and its records read back at once (csv-parse
 * parses a block synchronously); a record the parser skips is reported through on_skip meanwhile,
 * so a block's rows are put back in line order before they are yielded.
 */
export class CsvLeadRowSource extends FileRowSource {
  async *rows(): AsyncIterable<ImportRow[]> {
    const ready: ImportRow[] = [];
    const lines = new CsvLines();
    const rowOf = ({ record, line }: CsvRecord): ImportRow => {
      const { fields, readErrors } = typeCsvRecord(record);
      return { line, fields, original: record, readErrors };
    };
    const parser = parse({
      columns: true,
      bom: true,
      raw: true,
      // while parsing, in file order with on_skip: the CR count of CsvLines is kept in that order
      on_record: ({ record }: { record: Record<string, string> }, context: { lines: number }): CsvRecord => ({
        record,
        line: lines.recordStart(context.lines, record),
      }),
      // every LF or CRLF ends a record: left to itself, csv-parse keeps the first it meets, and a
      // file that mixes them had CRs kept in cells or two records read as one
      record_delimiter: ['\r\n', '\n'],
      skip_empty_lines: true,
      skip_records_with_error: true,
      on_skip: (error: CsvError | undefined, raw: string | undefined) => {
        if (!error) return;
        const line = lines.skippedStart((error as CsvError & { lines?: number }).lines ?? 0, raw);
        // csv-parse's message names its own line count; the row carries the right one
        const message = error.message.replace(/,? (?:on|at) line \d+/, '');
        ready.push(unreadable(line, raw?.replace(/^[\r\n]+/, '').replace(/\r?\n?$/, '') ?? null, message));
      },
    });
    const guard = new CsvRecordGuard((row) => ready.push(row));
    let failure: Error | undefined;
    parser.on('error', (error) => (failure = error));
    const readAll = () => {
      if (failure) throw failure;
      for (let record = parser.read() as CsvRecord | null; record !== null; record = parser.read())
        ready.push(rowOf(record));
      return ready.splice(0).sort(byLine);
    };
    for await (const chunk of this.blocks()) {
      const bytes = guard.feed(chunk); // the byte order mark included, for the parser's `bom`
      if (bytes.length > 0) parser.write(bytes);
      const rows = readAll();
      if (rows.length > 0) yield rows;
    }
    const last = guard.end();
    if (last.length > 0) parser.write(last);
    parser.end();
    for await (const record of parser as AsyncIterable<CsvRecord>) ready.push(rowOf(record));
    const rows = ready.splice(0).sort(byLine);
    if (rows.length > 0) yield rows;
  }
}

/**
 * `<path>.rejected.ndjson` (X13): one JSON object a line, `{"line", "message", "errors", "row"}`.
 * The file is created with the first rejected row, replacing the one of an earlier run; a run
 * that rejects nothing leaves no such file (an earlier run's is removed, it would mislead), unless
 * it stopped on an error having imported and rejected nothing: it changed nothing, the file stays.
 * Lines are buffered and written 64 KiB at a time.
 */
export class NdjsonRejectedRowSink extends RejectedRowSink {
  private file: FileHandle | undefined;
  private buffer: string[] = [];
  private buffered = 0;

  constructor(private readonly path: string) {
    super();
  }

  async write(row: RejectedRow): Promise<void> {
    const text = `${JSON.stringify({ line: row.line, message: row.message, errors: row.errors, row: row.row })}\n`;
    this.file ??= await open(this.path, 'w');
    this.buffer.push(text);
    this.buffered += text.length;
    if (this.buffered >= 64 * 1024) await this.flush();
  }

  async close(replaceEarlier: boolean): Promise<string | null> {
    if (!this.file) {
      if (replaceEarlier) await rm(this.path, { force: true });
      return null;
    }
    try {
      await this.flush();
    } finally {
      await this.file.close();
    }
    return this.path;
  }

  private async flush(): Promise<void> {
    const text = this.buffer.join('');
    this.buffer = [];
    this.buffered = 0;
    await this.file!.write(text);
  }
}
