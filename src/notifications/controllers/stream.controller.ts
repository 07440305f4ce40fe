import { Controller, Get, Headers, Req, Res } from '@nestjs/common';
import {
  ApiExtraModels,
  ApiForbiddenResponse,
  ApiHeader,
  ApiOkResponse,
  ApiOperation,
  ApiProduces,
  ApiTags,
  ApiTooManyRequestsResponse,
  getSchemaPath,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Gated } from '../../common/auth/access.decorators';
import { Principal } from '../../common/auth/principal.decorator';
import type { RequestPrincipal } from '../../common/auth/request-authenticator';
import { RateLimitClass } from '../../infrastructure/rate-limit/rate-limit-class';
import { NotificationRecord } from '../dto/notification-records.dto';
import { StreamResetData } from '../dto/stream-events.dto';
import { NotificationStreamService } from '../services/notification-stream.service';

const EVENTS = `Server-Sent Events (text/event-stream), one per new or updated notification of the caller:

    id: <opaque position>
    event: notification
    data: <the Notification record, as GET /notifications lists it>

A reconnect with \`Last-Event-ID\` resumes from the notifications table (up to STREAM_RESUME_MAX_EVENTS
notifications, none older than STREAM_RESUME_MAX_AGE_MS); past that, or for an id that is not a
position of this stream, an \`event: reset\` (data \`{"reason"}\`, \`id\` the newest position) asks the
client to read the listing again. A comment line (\`: heartbeat\`) every STREAM_HEARTBEAT_MS. A drain
(the replica stopping) sends \`retry: <ms>\` and closes; revocation of the credential or removal of the
signing key closes the stream within 5 s, and so does the person's request of their erasure (DELETE /profile),
during whose grace period no stream opens (403). At most STREAM_MAX_PER_IDENTITY open streams per person (429).`;

/** The caller's notifications as they are written (docs/decisions/0170-a-live-stream-of-notifications.md). */
@ApiTags('notifications')
@ApiExtraModels(NotificationRecord, StreamResetData)
@Controller('v1/stream')
export class StreamController {
  constructor(private readonly streams: NotificationStreamService) {}

  @Get()
  @RateLimitClass('read')
  @Gated(['read:profile'])
  @ApiOperation({
    summary: 'A live stream of the caller’s notifications (Server-Sent Events)',
    description: EVENTS,
  })
  @ApiHeader({ name: 'Last-Event-ID', required: false, description: 'the `id` of the last event received' })
  @ApiProduces('text/event-stream')
  @ApiOkResponse({
    description: EVENTS,
    content: {
      'text/event-stream': {
        schema: {
          type: 'string',
          description:
            'event data: `notification` events carry a NotificationRecord, `reset` events a StreamResetData',
          oneOf: [{ $ref: getSchemaPath(NotificationRecord) }, { $ref: getSchemaPath(StreamResetData) }],
        },
      },
    },
  })
  @ApiForbiddenResponse({
    description:
      'the credential does not grant read:profile, or the account awaits its erasure (deactivated)',
  })
  @ApiTooManyRequestsResponse({ description: 'the person holds STREAM_MAX_PER_IDENTITY open streams' })
  openStream(
    @Principal() principal: RequestPrincipal,
    @Req() request: Request,
    @Res() response: Response,
    @Headers('last-event-id') lastEventId: string | undefined,
  ): Promise<void> {
    return this.streams.open(principal, request, response, lastEventId);
  }
}
