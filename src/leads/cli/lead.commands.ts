import { CliCommand, CliUsageError, cliCommand, positiveInteger } from '../../shared/cli/cli-command';
import { ImportLeadsUseCase } from '../application/import-leads.use-case';
import {
  LeadFileFormat,
  NdjsonRejectedRowSink,
  leadFileFormatOf,
  openLeadRowSource,
  rejectedFileFor,
} from '../infrastructure/lead-import-files';
import { ProgressLines, TerminalProgressBar } from './lead-import-progress';

/** The file's format comes from its name; another name is a usage error, before anything runs. */
function leadFile(path: string): { path: string; format: LeadFileFormat } {
  const format = leadFileFormatOf(path);
  if (!format) throw new CliUsageError('It must end in .csv, .ndjson or .jsonl.');
  return { path, format };
}

/** X13 and docs/bulk-import.md. */
export const leadCommands: CliCommand[] = [
  cliCommand({
    name: 'leads:import',
    summary:
      "import a partner's leads from a .csv or .ndjson/.jsonl file; rejected rows go to <path>.rejected.ndjson",
    options: {
      vendor: { value: '<vendorId>', description: 'the id of the vendor', parse: positiveInteger },
      partner: {
        value: '<partnerId>',
        description: "the id of the vendor's partner who owns the leads",
        parse: positiveInteger,
      },
      file: { value: '<path>', description: 'a .csv, .ndjson or .jsonl file', parse: leadFile },
    },
    run: async (app, o) => {
      const source = await openLeadRowSource(o.file.path, o.file.format);
      return app.get(ImportLeadsUseCase).execute({
        vendorId: o.vendor,
        partnerId: o.partner,
        source,
        rejected: new NdjsonRejectedRowSink(rejectedFileFor(o.file.path)),
        progress: process.stderr.isTTY
          ? new TerminalProgressBar(process.stderr)
          : new ProgressLines(process.stderr),
      });
    },
  }),
];
