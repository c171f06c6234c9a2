import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ApiKeyAuthenticator } from '../shared/application/api-key-authenticator';
import { ApiKeyRepository, LeadOptionRepository, VendorRepository } from './application/ports';
import {
  AuthenticateApiKeyUseCase,
  CreateApiKeyUseCase,
  CreateLeadOptionUseCase,
  CreateVendorUseCase,
  ListLeadOptionsUseCase,
  RevokeApiKeyUseCase,
} from './application/vendor-use-cases';
import { ApiKeyOrmEntity, LeadOptionOrmEntity, VendorOrmEntity } from './infrastructure/vendor.orm-entities';
import {
  TypeOrmApiKeyRepository,
  TypeOrmLeadOptionRepository,
  TypeOrmVendorRepository,
} from './infrastructure/typeorm-vendor.repositories';

/** Vendors, API keys and lead options. Administered through the CLI; no HTTP endpoint of its own. */
@Module({
  imports: [TypeOrmModule.forFeature([VendorOrmEntity, ApiKeyOrmEntity, LeadOptionOrmEntity])],
  providers: [
    { provide: VendorRepository, useClass: TypeOrmVendorRepository },
    { provide: ApiKeyRepository, useClass: TypeOrmApiKeyRepository },
    { provide: LeadOptionRepository, useClass: TypeOrmLeadOptionRepository },
    CreateVendorUseCase,
    CreateApiKeyUseCase,
    RevokeApiKeyUseCase,
    AuthenticateApiKeyUseCase,
    CreateLeadOptionUseCase,
    ListLeadOptionsUseCase,
    {
      provide: ApiKeyAuthenticator,
      inject: [AuthenticateApiKeyUseCase],
      useFactory: (useCase: AuthenticateApiKeyUseCase): ApiKeyAuthenticator => ({
        authenticate: (key) => useCase.execute(key),
      }),
    },
  ],
  exports: [
    ApiKeyAuthenticator,
    LeadOptionRepository,
    VendorRepository,
    CreateVendorUseCase,
    CreateApiKeyUseCase,
    RevokeApiKeyUseCase,
    CreateLeadOptionUseCase,
    ListLeadOptionsUseCase,
  ],
})
export class VendorsModule {}
