import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { ApiTimeProperty } from '../common/api-docs/api-properties';

/** The answer of a console sign-in: the session itself travels only in its HttpOnly cookie. */
@ApiSchema({ name: 'ConsoleSession' })
export class ConsoleSessionResponseDto {
  @ApiTimeProperty('When the session ends (real time, 12 hours after sign-in).')
  expiresAt: string;
}

/** The answer of a console sign-out. */
@ApiSchema({ name: 'ConsoleSignOut' })
export class ConsoleSignOutResponseDto {
  @ApiProperty({ description: 'Always true: the session named by the cookie (if any) no longer exists and the cookie is cleared.', example: true })
  signedOut: boolean;
}

/** Whether the caller's own cookie names a live session: the console asks this instead of failing a call. */
@ApiSchema({ name: 'ConsoleSessionState' })
export class ConsoleSessionStateResponseDto {
  @ApiProperty({ description: "true when the request's cookie names a live session.", example: true })
  signedIn: boolean;

  @ApiTimeProperty('When the session ends; null when not signed in.', { nullable: true })
  expiresAt: string | null;

  @ApiProperty({ type: Boolean, nullable: true, description: 'Signed in: whether the test clock is on (TEST_CLOCK=true); null when not signed in.', example: false })
  testClock: boolean | null;

  @ApiProperty({
    type: [String],
    nullable: true,
    description: 'Signed in: the scopes of the credential it was opened with (`["admin"]` for ADMIN_TOKEN); the console shows only what they allow. Null when not signed in.',
    example: ['admin'],
  })
  scopes: string[] | null;

  @ApiProperty({
    type: [String],
    nullable: true,
    description: "Signed in: the VAT rates a new plan's or one-off charge's line may carry (BILLING_TAX_RATES, in its order), which the console offers; null when not signed in.",
    example: ['0%', '5%', '7%', '10%', '22%', '5/105', '7/107', '10/110', '22/122'],
  })
  taxRates: string[] | null;
}
