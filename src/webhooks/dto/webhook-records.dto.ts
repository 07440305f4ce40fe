import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { PageEnvelope } from '../../common/pagination/page-envelope.dto';
import { WEBHOOK_EVENT_TYPES } from '../domain/webhook-events';

export class WebhookRecord {
  @ApiProperty({ example: 'webhook_0196f0a2c4d87e3f9b1a5c6d7e8f9012' })
  id: string;

  @ApiProperty({ example: 'https://hooks.example.com/plat' })
  url: string;

  @ApiProperty({ enum: WEBHOOK_EVENT_TYPES, isArray: true })
  events: string[];

  @ApiProperty({ type: String, nullable: true })
  description: string | null;

  @ApiProperty()
  includeMembersOnly: boolean;

  @ApiProperty()
  enabled: boolean;

  @ApiProperty({
    type: String,
    nullable: true,
    enum: ['admin', 'gone', 'failing'],
    description: 'why it is disabled: an admin, the receiver answered 410, or 5 days of failures',
  })
  disabledReason: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'until when the secret before the last rotation still signs beside the new one',
  })
  previousSecretValidUntil: string | null;

  @ApiProperty({ example: '2026-03-01T12:00:00.000Z' })
  createdAt: string;

  @ApiProperty({ example: '2026-03-01T12:00:00.000Z' })
  updatedAt: string;
}

/** The answer of a create: the record and its secret, shown this once. */
export class CreatedWebhookRecord extends WebhookRecord {
  @ApiProperty({ example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', description: 'shown once' })
  secret: string;
}

/** The answer of a rotation: the new secret, shown this once. */
export class RotatedSecretRecord {
  @ApiProperty({ example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' })
  secret: string;

  @ApiProperty({ description: 'the previous secret signs beside it until then' })
  previousSecretValidUntil: string;
}

export class WebhookListing extends PageEnvelope {
  @ApiProperty({ type: [WebhookRecord] })
  items: WebhookRecord[];
}

export class DeliveryRecord {
  @ApiProperty({ example: 'delivery_0196f0a2c4d87e3f9b1a5c6d7e8f9012' })
  id: string;

  @ApiProperty({ example: 'msg_0196f0a2c4d87e3f9b1a5c6d7e8f9012', description: 'the webhook-id header' })
  eventId: string;

  @ApiProperty({ example: 'post.created' })
  type: string;

  @ApiProperty({ enum: ['pending', 'succeeded', 'failed'] })
  status: string;

  @ApiProperty()
  attempts: number;

  @ApiProperty({ type: Number, nullable: true })
  lastStatusCode: number | null;

  @ApiProperty({ type: String, nullable: true })
  lastError: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'when a pending delivery is tried next' })
  nextAttemptAt: string | null;

  @ApiProperty({ type: Number, nullable: true, description: 'milliseconds the last attempt took' })
  latencyMs: number | null;

  @ApiPropertyOptional({ type: String, nullable: true })
  lastAttemptAt: string | null;

  @ApiProperty()
  createdAt: string;
}

export class DeliveryListing extends PageEnvelope {
  @ApiProperty({ type: [DeliveryRecord] })
  items: DeliveryRecord[];
}
