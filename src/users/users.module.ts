import { Module } from '@nestjs/common';
import { MediaRecordsModule } from '../media';
import { TypeOrmModule } from '@nestjs/typeorm';
import { SpacesModule } from '../spaces';
import { AccountsController } from './accounts.controller';
import { AuthorDirectory } from './author-directory';
import { UserSpacePin } from './entities/user-space-pin.entity';
import { UserSpacesService } from './user-spaces.service';
import { User } from './entities/user.entity';
import { UsersService } from './users.service';
import { PaginationModule } from '../common/pagination/pagination.module';
import { RelayModule, AuthModule } from '../protocol';

/** Accounts and profiles, pins, and the public user reads (/v1/users). */
@Module({
  imports: [
    TypeOrmModule.forFeature([User, UserSpacePin]),
    AuthModule,
    PaginationModule,
    RelayModule,
    SpacesModule,
    MediaRecordsModule,
  ],
  controllers: [AccountsController],
  providers: [UsersService, UserSpacesService, AuthorDirectory],
  exports: [UsersService, AuthorDirectory],
})
export class UsersModule {}
