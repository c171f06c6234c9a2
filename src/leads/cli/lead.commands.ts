import { CliCommand, CliUsageError, idOption } from '../../shared/cli/cli-command';
import { ImportLeadsUseCase } from '../application/import-leads.use-case';
import {
  NdjsonRejectedRowSink,
  leadFileFormatOf,
  openLeadRowSource,
  rejectedFileFor,
} from '../infrastructure/lead-import-files';
import { ProgressLines, TerminalProgressBar } from './lead-import-progress';

/** X13 and docs/bulk-import.md. */
export const leadCommands: CliCommand[] = [
  {
    name: 'leads:import',
    summary:
      "import a partner's leads from a .csv or .ndjson/.jsonl file; rejected rows go to <path>.rejected.ndjson",
    options: {
      vendor: { value: '<vendorId>', id: true },
      partner: { value: '<partnerId>', id: true },
      file: { value: '<path>' },
    },
    run: async (app, o) => {
      const vendorId = idOption(o, 'vendor');
      const partnerId = idOption(o, 'partner');
      const path = o.file!;
      const format = leadFileFormatOf(path);
      if (!format) {
        throw new CliUsageError(`--file must end in .csv, .ndjson or .jsonl, got ${JSON.stringify(path)}`);
      }
      const source = await openLeadRowSource(path, format);
      return app.get(ImportLeadsUseCase).execute({
        vendorId,
        partnerId,
        source,
        rejected: new NdjsonRejectedRowSink(rejectedFileFor(path)),
        progress: process.stderr.isTTY
          ? new TerminalProgressBar(process.stderr)
          : new ProgressLines(process.stderr),
      });
    },
  },
];
