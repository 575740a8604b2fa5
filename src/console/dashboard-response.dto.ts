import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { ApiCurrencyProperty, ApiIdProperty, ApiTimeProperty } from '../common/api-docs/api-properties';

const COUNT = { type: 'integer', minimum: 0, example: 3 } as const;

/** Charges attempted today with one outcome, in one currency. */
@ApiSchema({ name: 'DashboardOutcome' })
export class DashboardOutcomeDto {
  @ApiProperty({ enum: ['succeeded', 'declined', 'in_flight'], description: "The outcome of the charge's latest attempt today.", example: 'succeeded' })
  outcome: string;

  @ApiCurrencyProperty()
  currency: string;

  @ApiProperty({ ...COUNT, description: 'Charges.' })
  count: number;

  @ApiProperty({ type: 'integer', minimum: 0, description: 'Their amounts added up, in minor units.', example: 7500 })
  amount: number;
}

@ApiSchema({ name: 'DashboardChargesToday' })
export class DashboardChargesTodayDto {
  @ApiProperty({ ...COUNT, description: 'Charges whose latest attempt today succeeded.' })
  succeeded: number;

  @ApiProperty({ ...COUNT, description: 'Charges whose latest attempt today was declined.' })
  declined: number;

  @ApiProperty({ ...COUNT, description: 'Charges whose latest attempt today has no final outcome yet.' })
  inFlight: number;

  @ApiProperty({ type: [DashboardOutcomeDto], description: 'The same per outcome and currency, with amounts.' })
  byCurrency: DashboardOutcomeDto[];
}

@ApiSchema({ name: 'DashboardDunningCurrency' })
export class DashboardDunningCurrencyDto {
  @ApiCurrencyProperty()
  currency: string;

  @ApiProperty({ ...COUNT, description: 'Declined charges waiting for their next attempt.' })
  retrying: number;

  @ApiProperty({ ...COUNT, description: 'Charges waiting for a new card after a hard decline.' })
  awaitingCard: number;

  @ApiProperty({ type: 'integer', minimum: 0, description: 'Their amounts added up, in minor units.', example: 7500 })
  amount: number;
}

@ApiSchema({ name: 'DashboardDunning' })
export class DashboardDunningDto {
  @ApiProperty({ ...COUNT, description: 'Declined charges waiting for their next attempt.' })
  retrying: number;

  @ApiProperty({ ...COUNT, description: 'Charges waiting for a new card after a hard decline.' })
  awaitingCard: number;

  @ApiProperty({ type: [DashboardDunningCurrencyDto], description: 'The same per currency, with amounts.' })
  byCurrency: DashboardDunningCurrencyDto[];
}

@ApiSchema({ name: 'DashboardSubscriptionsByStatus' })
export class DashboardSubscriptionsByStatusDto {
  @ApiProperty(COUNT) incomplete: number;
  @ApiProperty(COUNT) trialing: number;
  @ApiProperty(COUNT) active: number;
  @ApiProperty(COUNT) past_due: number;
  @ApiProperty(COUNT) paused: number;
  @ApiProperty(COUNT) unpaid: number;
  @ApiProperty(COUNT) canceled: number;
}

@ApiSchema({ name: 'DashboardFailingEndpoint' })
export class DashboardFailingEndpointDto {
  @ApiIdProperty('The webhook endpoint.')
  id: string;

  @ApiProperty({ description: 'Where it delivers.', example: 'https://merchant.example/webhooks' })
  url: string;

  @ApiProperty({ description: 'false: paused.', example: true })
  enabled: boolean;

  @ApiProperty({ type: 'integer', minimum: 1, description: 'Failed attempts since its last success.', example: 4 })
  consecutiveFailures: number;
}

@ApiSchema({ name: 'DashboardFailingEndpoints' })
export class DashboardFailingEndpointsDto {
  @ApiProperty({ ...COUNT, description: 'Endpoints whose latest attempt failed.' })
  count: number;

  @ApiProperty({ type: [DashboardFailingEndpointDto], description: 'The ten with the most failures since their last success.' })
  items: DashboardFailingEndpointDto[];
}

/** GET /api/v1/dashboard. */
@ApiSchema({ name: 'Dashboard' })
export class DashboardResponseDto {
  @ApiTimeProperty('The billing clock when the figures were read.')
  at: string;

  @ApiTimeProperty("Start of today (UTC) on the billing clock: 'today' below is [dayStart, dayEnd).")
  dayStart: string;

  @ApiTimeProperty('End of today (UTC) on the billing clock.')
  dayEnd: string;

  @ApiProperty({ type: DashboardChargesTodayDto, description: 'Charges attempted today, each counted once by its latest attempt.' })
  chargesToday: DashboardChargesTodayDto;

  @ApiProperty({ type: DashboardSubscriptionsByStatusDto, description: 'How many subscriptions are in each status.' })
  subscriptionsByStatus: DashboardSubscriptionsByStatusDto;

  @ApiProperty({ type: DashboardDunningDto, description: 'Charges in dunning now.' })
  dunning: DashboardDunningDto;

  @ApiProperty({ type: DashboardFailingEndpointsDto, description: 'Webhook endpoints whose deliveries fail.' })
  failingEndpoints: DashboardFailingEndpointsDto;
}
