import { Controller, Get, Header } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Anonymous } from '../common/auth/access.decorators';
import { ApiArtifacts } from './api-artifacts.service';
import { RateLimitClass } from '../infrastructure/rate-limit/rate-limit-class';

const STATIC_CACHE = 'public, s-maxage=300';

@ApiExcludeController()
@Controller()
@Anonymous()
export class ApiArtifactsController {
  constructor(private readonly artifacts: ApiArtifacts) {}

  @Get(['openapi.json', 'v1/openapi.json'])
  @RateLimitClass('read', { plainTextRefusal: true })
  @Header('Content-Type', 'application/json; charset=utf-8')
  @Header('Cache-Control', STATIC_CACHE)
  openApiJson(): string {
    return this.artifacts.json;
  }

  @Get(['openapi.yaml', 'v1/openapi.yaml'])
  @RateLimitClass('read', { plainTextRefusal: true })
  @Header('Content-Type', 'application/yaml; charset=utf-8')
  @Header('Cache-Control', STATIC_CACHE)
  openApiYaml(): string {
    return this.artifacts.yaml;
  }

  @Get(['llms.txt', 'v1/llms.txt'])
  @RateLimitClass('read', { plainTextRefusal: true })
  @Header('Content-Type', 'text/plain; charset=utf-8')
  @Header('Cache-Control', STATIC_CACHE)
  llmsTxt(): string {
    return this.artifacts.llmsTxt;
  }
}
