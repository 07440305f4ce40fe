import { Module } from '@nestjs/common';
import { SpacesModule } from '../../spaces/spaces.module';
import { UsersModule } from '../../users/users.module';
import { CredentialController } from './credential.controller';
import { CredentialIntrospectionService } from './credential-introspection.service';

@Module({
  imports: [UsersModule, SpacesModule],
  controllers: [CredentialController],
  providers: [CredentialIntrospectionService],
})
export class CredentialsModule {}
