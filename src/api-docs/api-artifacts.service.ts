import { Injectable } from '@nestjs/common';
import { OpenAPIObject } from '@nestjs/swagger';
import { dump } from 'js-yaml';
import { buildLlmsTxt } from './llms-txt';

/**
 * The static artifacts, rendered from the route metadata on first request and kept: building the
 * document takes about a second of CPU, which a replica (or a worker, which never serves them)
 * would otherwise spend at every boot.
 */
@Injectable()
export class ApiArtifacts {
  private source: (() => OpenAPIObject) | null = null;
  private document: OpenAPIObject | null = null;
  private rendered: { json?: string; yaml?: string; llmsTxt?: string } = {};

  /** Names how the document is built, once the application's routes are registered. */
  publish(source: () => OpenAPIObject): void {
    this.source = source;
    this.document = null;
    this.rendered = {};
  }

  get json(): string {
    return (this.rendered.json ??= `${JSON.stringify(this.built(), null, 2)}\n`);
  }

  get yaml(): string {
    return (this.rendered.yaml ??= dump(this.built(), { noRefs: true, lineWidth: 120 }));
  }

  get llmsTxt(): string {
    return (this.rendered.llmsTxt ??= buildLlmsTxt(this.built()));
  }

  private built(): OpenAPIObject {
    if (!this.source) throw new Error('the API artifacts are read before the application published them');
    return (this.document ??= this.source());
  }
}
