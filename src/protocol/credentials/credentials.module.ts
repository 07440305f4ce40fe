import { Module } from '@nestjs/common';
import { SpacesModule } from '../../spaces';
import { UsersModule } from '../../users';
import { CredentialController } from './controllers/credential.controller';
import { CredentialIntrospectionService } from './services/credential-introspection.service';

@Module({
  imports: [UsersModule, SpacesModule],
  controllers: [CredentialController],
  providers: [CredentialIntrospectionService],
})
export class CredentialsModule {}
