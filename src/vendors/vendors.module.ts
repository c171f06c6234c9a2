import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ApiKeyAuthenticator } from '../shared/application/api-key-authenticator';
import { ApiKeyRepository } from './application/api-key-repository';
import { LeadOptionRepository } from './application/lead-option-repository';
import { VendorDirectory } from './application/vendor-directory';
import { VendorRepository } from './application/vendor-repository';
import { AuthenticateApiKeyUseCase } from './application/authenticate-api-key.use-case';
import { CreateApiKeyUseCase } from './application/create-api-key.use-case';
import { CreateLeadOptionUseCase } from './application/create-lead-option.use-case';
import { CreateVendorUseCase } from './application/create-vendor.use-case';
import { GetLeadOptionsUseCase } from './application/get-lead-options.use-case';
import { ListApiKeysUseCase } from './application/list-api-keys.use-case';
import { ListLeadOptionsUseCase } from './application/list-lead-options.use-case';
import { ListVendorsUseCase } from './application/list-vendors.use-case';
import { RecordApiKeyUseUseCase } from './application/record-api-key-use.use-case';
import { RevokeApiKeyUseCase } from './application/revoke-api-key.use-case';
import { LeadOptionsController } from './http/lead-options.controller';
import { ApiKeyOrmEntity } from './infrastructure/api-key.orm-entity';
import { LeadOptionOrmEntity } from './infrastructure/lead-option.orm-entity';
import { VendorOrmEntity } from './infrastructure/vendor.orm-entity';
import { TypeOrmApiKeyRepository } from './infrastructure/typeorm-api-key-repository';
import { TypeOrmLeadOptionRepository } from './infrastructure/typeorm-lead-option-repository';
import { TypeOrmVendorDirectory } from './infrastructure/typeorm-vendor-directory';
import { TypeOrmVendorRepository } from './infrastructure/typeorm-vendor-repository';
import { VendorQueries } from './infrastructure/vendors.queries';

/**
 * Vendors, API keys and lead options. Administered through the CLI; its one endpoint reads the
 * caller's lead options (X11).
 */
@Module({
  imports: [TypeOrmModule.forFeature([VendorOrmEntity, ApiKeyOrmEntity, LeadOptionOrmEntity])],
  controllers: [LeadOptionsController],
  providers: [
    VendorQueries,
    { provide: VendorRepository, useClass: TypeOrmVendorRepository },
    { provide: VendorDirectory, useClass: TypeOrmVendorDirectory },
    { provide: ApiKeyRepository, useClass: TypeOrmApiKeyRepository },
    { provide: LeadOptionRepository, useClass: TypeOrmLeadOptionRepository },
    CreateVendorUseCase,
    ListVendorsUseCase,
    CreateApiKeyUseCase,
    RevokeApiKeyUseCase,
    ListApiKeysUseCase,
    AuthenticateApiKeyUseCase,
    RecordApiKeyUseUseCase,
    CreateLeadOptionUseCase,
    ListLeadOptionsUseCase,
    GetLeadOptionsUseCase,
    {
      provide: ApiKeyAuthenticator,
      inject: [AuthenticateApiKeyUseCase, RecordApiKeyUseUseCase],
      useFactory: (
        authenticate: AuthenticateApiKeyUseCase,
        recordUse: RecordApiKeyUseUseCase,
      ): ApiKeyAuthenticator => ({
        authenticate: (presented) => authenticate.execute(presented),
        recordUse: (key) => recordUse.execute(key),
      }),
    },
  ],
  exports: [
    ApiKeyAuthenticator,
    LeadOptionRepository,
    VendorDirectory,
    CreateVendorUseCase,
    ListVendorsUseCase,
    CreateApiKeyUseCase,
    RevokeApiKeyUseCase,
    ListApiKeysUseCase,
    CreateLeadOptionUseCase,
    ListLeadOptionsUseCase,
  ],
})
export class VendorsModule {}
