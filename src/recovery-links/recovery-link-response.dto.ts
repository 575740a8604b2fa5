import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { ApiTimeProperty } from '../common/api-docs/api-properties';

/** Documentation of a freshly minted recovery link. */
@ApiSchema({ name: 'RecoveryLink' })
export class RecoveryLinkResponseDto {
  @ApiProperty({
    type: String,
    nullable: true,
    description:
      "The page the customer opens to bind a new card: `PUBLIC_URL/pay/<token>` (without PUBLIC_URL, the daemon's own URL). Shown here and in `charge.action_required` only; the daemon keeps only the link's id, so a repeat with the same Idempotency-Key answers null here: mint another.",
    example: 'https://billing.example.com/pay/3f2b8c1e-4d5a-4b6c-8d7e-9f0a1b2c3d4e.l0Vn0cYqgY0cQm1y4Qm8b0VdXyJ4P6oC2Yx7i3lM7aE',
  })
  url: string | null;

  @ApiTimeProperty('When the link stops working (RECOVERY_LINK_TTL after it was minted, in real time).')
  expiresAt: string;
}
