import { CliCommand, CliUsageError, cliCommand, positiveInteger, text } from '../../shared/cli/cli-command';
import { CreateApiKeyUseCase } from '../application/create-api-key.use-case';
import { CreateLeadOptionUseCase } from '../application/create-lead-option.use-case';
import { CreateVendorUseCase } from '../application/create-vendor.use-case';
import { ListApiKeysUseCase } from '../application/list-api-keys.use-case';
import { ListLeadOptionsUseCase } from '../application/list-lead-options.use-case';
import { ListVendorsUseCase } from '../application/list-vendors.use-case';
import { RevokeApiKeyUseCase } from '../application/revoke-api-key.use-case';
import { LEAD_OPTION_KINDS, LeadOptionKind } from '../domain/lead-option';

const vendor = { value: '<vendorId>', description: 'the id of the vendor', parse: positiveInteger };

/** A kind the command line itself shows wrong is a usage error (exit 2), checked before anything runs. */
function leadOptionKind(raw: string): LeadOptionKind {
  if (!LEAD_OPTION_KINDS.includes(raw as LeadOptionKind)) {
    throw new CliUsageError(`It must be ${LEAD_OPTION_KINDS.join(' or ')}.`);
  }
  return raw as LeadOptionKind;
}

/** docs/configuration.md "Administration CLI": the vendor, API key and lead option commands. */
export const vendorCommands: CliCommand[] = [
  cliCommand({
    name: 'vendors:create',
    summary: 'create a vendor and its first API key',
    options: { name: { value: '<name>', description: 'the vendor name, 1 to 255 characters', parse: text } },
    run: (app, o) => app.get(CreateVendorUseCase).execute(o.name),
  }),
  cliCommand({
    name: 'vendors:list',
    summary: 'list every vendor, oldest first',
    options: {},
    run: (app) => app.get(ListVendorsUseCase).execute(),
  }),
  cliCommand({
    name: 'api-keys:create',
    summary: 'create another active API key for a vendor',
    options: { vendor },
    run: (app, o) => app.get(CreateApiKeyUseCase).execute(o.vendor),
  }),
  cliCommand({
    name: 'api-keys:revoke',
    summary: 'revoke an API key; it is refused from the next request on',
    options: { key: { value: '<key>', description: 'the API key to revoke', parse: text } },
    run: (app, o) => app.get(RevokeApiKeyUseCase).execute(o.key),
  }),
  cliCommand({
    name: 'api-keys:list',
    summary: "list a vendor's API keys, revoked ones included, newest first; never a secret",
    options: { vendor },
    run: (app, o) => app.get(ListApiKeysUseCase).execute(o.vendor),
  }),
  cliCommand({
    name: 'lead-options:create',
    summary: 'create a lead source or lead status value for a vendor',
    options: {
      vendor,
      kind: { value: '<source|status>', description: 'source or status', parse: leadOptionKind },
      label: { value: '<label>', description: 'the label, 1 to 255 characters', parse: text },
    },
    run: (app, o) => app.get(CreateLeadOptionUseCase).execute(o.vendor, o.kind, o.label),
  }),
  cliCommand({
    name: 'lead-options:list',
    summary: "list a vendor's lead source and status values",
    options: { vendor },
    run: (app, o) => app.get(ListLeadOptionsUseCase).execute(o.vendor),
  }),
];
