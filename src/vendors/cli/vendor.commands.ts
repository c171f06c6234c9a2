import { CliCommand, idOption } from '../../shared/cli/cli-command';
import { CreateApiKeyUseCase } from '../application/create-api-key.use-case';
import { CreateLeadOptionUseCase } from '../application/create-lead-option.use-case';
import { CreateVendorUseCase } from '../application/create-vendor.use-case';
import { ListLeadOptionsUseCase } from '../application/list-lead-options.use-case';
import { RevokeApiKeyUseCase } from '../application/revoke-api-key.use-case';

/** docs/configuration.md "Administration CLI": the vendor, API key and lead option commands. */
export const vendorCommands: CliCommand[] = [
  {
    name: 'vendors:create',
    summary: 'create a vendor and its first API key',
    options: { name: { value: '<name>' } },
    run: (app, o) => app.get(CreateVendorUseCase).execute(o.name!),
  },
  {
    name: 'api-keys:create',
    summary: 'create another active API key for a vendor',
    options: { vendor: { value: '<vendorId>', id: true } },
    run: (app, o) => app.get(CreateApiKeyUseCase).execute(idOption(o, 'vendor')),
  },
  {
    name: 'api-keys:revoke',
    summary: 'revoke an API key; it is refused from the next request on',
    options: { key: { value: '<key>' } },
    run: (app, o) => app.get(RevokeApiKeyUseCase).execute(o.key!),
  },
  {
    name: 'lead-options:create',
    summary: 'create a lead source or lead status value for a vendor',
    options: {
      vendor: { value: '<vendorId>', id: true },
      kind: { value: 'source|status' },
      label: { value: '<label>' },
    },
    run: (app, o) => app.get(CreateLeadOptionUseCase).execute(idOption(o, 'vendor'), o.kind!, o.label!),
  },
  {
    name: 'lead-options:list',
    summary: "list a vendor's lead source and status values",
    options: { vendor: { value: '<vendorId>', id: true } },
    run: (app, o) => app.get(ListLeadOptionsUseCase).execute(idOption(o, 'vendor')),
  },
];
