import { Injectable, OnModuleInit } from '@nestjs/common';
import { JobOutbox } from '../../infrastructure/jobs/job-outbox';
import { MediaErasureService } from '../services/media-erasure.service';
import { DELETE_FILES_JOB, DeleteFilesJob } from './media.events';

/**
 * Deletes the files of media an erasure deleted, after its commit; the outbox row stays until the
 * handler succeeded, so a storage outage delays the deletion but never drops it
 * (docs/decisions/0192-an-erasure-takes-the-persons-media-and-invites.md).
 */
@Injectable()
export class MediaErasureSubscriber implements OnModuleInit {
  constructor(
    private readonly outbox: JobOutbox,
    private readonly erasure: MediaErasureService,
  ) {}

  onModuleInit(): void {
    this.outbox.handle<DeleteFilesJob>(DELETE_FILES_JOB, (job) => this.erasure.deleteFiles(job), {
      attempts: 5,
      backoffMs: 30_000,
    });
  }
}
