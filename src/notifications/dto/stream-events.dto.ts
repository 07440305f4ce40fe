import { ApiProperty } from '@nestjs/swagger';

/** The data of a `reset` event of `GET /v1/stream`. */
export class StreamResetData {
  @ApiProperty({
    enum: ['unknown-position', 'too-old', 'too-many'],
    description:
      '`Last-Event-ID` named no position of this stream, or one older than the resume window, or more ' +
      'notifications were missed than a resume sends: read `GET /notifications` again',
  })
  reason: 'unknown-position' | 'too-old' | 'too-many';
}
