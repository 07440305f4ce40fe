import { Module } from '@nestjs/common';
import { SpacesModule } from '../../spaces';
import { UsersModule } from '../../users';
import { CredentialController } from './credential.controller';
import { CredentialIntrospectionService } from './credential-introspection.service';

@Module({
  imports: [UsersModule, SpacesModule],
  controllers: [CredentialController],
  providers: [CredentialIntrospectionService],
})
export class CredentialsModule {}
