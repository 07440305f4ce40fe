import { Module } from '@nestjs/common';
import { ApiArtifactsController } from './api-artifacts.controller';
import { ApiArtifacts } from './api-artifacts.service';

@Module({ controllers: [ApiArtifactsController], providers: [ApiArtifacts], exports: [ApiArtifacts] })
export class ApiDocsModule {}
