import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PaginationModule } from '../common/pagination/pagination.module';
import { ExportsController } from './controllers/exports.controller';
import { Export } from './entities/export.entity';
import { ExportsRepository } from './exports.repository';
import { ExportsService } from './services/exports.service';

/** The exports module (docs/adding-a-module.md): say here what it owns and offers. */
@Module({
  imports: [TypeOrmModule.forFeature([Export]), PaginationModule],
  controllers: [ExportsController],
  providers: [ExportsService, ExportsRepository],
})
export class ExportsModule {}
