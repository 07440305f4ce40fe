import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PaginationModule } from '../common/pagination/pagination.module';
import { LinkPreviewsModule } from '../link-previews';
import { MediaRecordsModule } from '../media';
import { AuthModule, RelayModule } from '../protocol';
import { SpacesModule } from '../spaces';
import { OwnProfileController } from './controllers/own-profile.controller';
import { ProfileController } from './controllers/profile.controller';
import { PublicUsersController } from './controllers/public-users.controller';
import { SpacePinController } from './controllers/space-pin.controller';
import { UsersController } from './controllers/users.controller';
import { UserSpacePin } from './entities/user-space-pin.entity';
import { User } from './entities/user.entity';
import { AccountErasureService } from './services/account-erasure.service';
import { AuthorDirectoryService } from './services/author-directory.service';
import { UserSpacesService } from './services/user-spaces.service';
import { UsersService } from './services/users.service';
import { UsersRepository } from './users.repository';

/** Accounts and profiles, pins, and the public user reads (/v1/users). */
@Module({
  imports: [
    TypeOrmModule.forFeature([User, UserSpacePin]),
    AuthModule,
    PaginationModule,
    RelayModule,
    SpacesModule,
    MediaRecordsModule,
    LinkPreviewsModule,
  ],
  controllers: [
    UsersController,
    ProfileController,
    OwnProfileController,
    SpacePinController,
    PublicUsersController,
  ],
  providers: [
    UsersRepository,
    UsersService,
    UserSpacesService,
    AuthorDirectoryService,
    AccountErasureService,
  ],
  exports: [UsersService, AuthorDirectoryService, AccountErasureService],
})
export class UsersModule {}
