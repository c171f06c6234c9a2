import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ApiKeyAuthenticator } from '../shared/application/api-key-authenticator';
import { ApiKeyRepository, LeadOptionRepository, VendorRepository } from './application/ports';
import {
  AuthenticateApiKeyUseCase,
  CreateApiKeyUseCase,
  CreateLeadOptionUseCase,
  CreateVendorUseCase,
  GetLeadOptionsUseCase,
  ListLeadOptionsUseCase,
  RevokeApiKeyUseCase,
} from './application/vendor-use-cases';
import { LeadOptionsController } from './http/lead-options.controller';
import { ApiKeyOrmEntity, LeadOptionOrmEntity, VendorOrmEntity } from './infrastructure/vendor.orm-entities';
import {
  TypeOrmApiKeyRepository,
  TypeOrmLeadOptionRepository,
  TypeOrmVendorRepository,
} from './infrastructure/typeorm-vendor.repositories';

/**
 * Vendors, API keys and lead options. Administered through the CLI; its one endpoint reads the
 * caller's lead options (X11).
 */
@Module({
  imports: [TypeOrmModule.forFeature([VendorOrmEntity, ApiKeyOrmEntity, LeadOptionOrmEntity])],
  controllers: [LeadOptionsController],
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
    GetLeadOptionsUseCase,
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
