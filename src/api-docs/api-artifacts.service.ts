import { Injectable } from '@nestjs/common';
import { OpenAPIObject } from '@nestjs/swagger';
import { dump } from 'js-yaml';
import { buildLlmsTxt } from './llms-txt';

/** The static artifacts, rendered once at boot from the route metadata. */
@Injectable()
export class ApiArtifacts {
  json = '';
  yaml = '';
  llmsTxt = '';

  publish(document: OpenAPIObject): void {
    this.json = `${JSON.stringify(document, null, 2)}\n`;
    this.yaml = dump(document, { noRefs: true, lineWidth: 120 });
    this.llmsTxt = buildLlmsTxt(document);
  }
}
