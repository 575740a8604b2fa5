import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { ApiCurrencyProperty, ApiIdProperty, ApiMetadataAnswer, ApiTimeProperty } from '../common/api-docs/api-properties';
import { PlanEffectiveDunningDto } from './plan-effective-dunning.dto';
import { PlanLineResponseDto } from './plan-line-response.dto';
import { PLAN_INTERVALS } from './plan-validation';
import type { PlanInterval, PlanStatus } from './plan.entity';

/** Documentation of a plan as the admin API answers it (plan-response.ts builds it). */
@ApiSchema({ name: 'Plan' })
export class PlanResponseDto {
  @ApiIdProperty('The plan id.')
  id: string;

  @ApiProperty({ example: 'Pro monthly' })
  name: string;

  @ApiProperty({ description: 'The invoice `product`.', example: 'Pro plan' })
  product: string;

  @ApiProperty({ type: String, nullable: true, description: 'The invoice `description`.', example: 'Everything in Pro, billed monthly' })
  description: string | null;

  @ApiCurrencyProperty()
  currency: string;

  @ApiProperty({ enum: PLAN_INTERVALS, example: 'month' })
  interval: PlanInterval;

  @ApiProperty({ type: 'integer', example: 1 })
  intervalCount: number;

  @ApiProperty({ type: 'integer', example: 14 })
  trialDays: number;

  @ApiProperty({ type: [PlanLineResponseDto] })
  lines: PlanLineResponseDto[];

  @ApiProperty({ type: 'integer', description: 'Sum of price × quantity over the lines, in minor units: what each period costs.', example: 2500 })
  amount: number;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: "Charged once per subscription (not per seat): an extra cart line of its first paid period's invoice, or, with a trial, a charge of kind `one_off` at its start; null: none.",
    example: 9900,
  })
  setupFee: number | null;

  @ApiProperty({ type: String, nullable: true, description: "The setup fee line's VAT rate; null: none (no VAT data on the line, or no setup fee).", example: '22%' })
  setupFeeTaxRate: string | null;

  @ApiProperty({
    description: "true when every line's VAT rate (and the setup fee's) is one of the rates in force (BILLING_TAX_RATES); false when a line keeps a former rate (say 20 % after 2026-01-01): move its subscribers to a current plan with a plan migration.",
    example: true,
  })
  taxRatesCurrent: boolean;

  @ApiProperty({ example: 'shop-1' })
  shopId: string;

  @ApiProperty({ type: PlanEffectiveDunningDto, description: "The effective dunning: the plan's own, else the environment's." })
  dunning: PlanEffectiveDunningDto;

  @ApiMetadataAnswer()
  metadata: Record<string, unknown>;

  @ApiProperty({ enum: ['active', 'archived'], description: 'An archived plan takes no new subscriptions; existing ones go on.', example: 'active' })
  status: PlanStatus;

  @ApiTimeProperty('When the plan was created.')
  createdAt: string;

  @ApiTimeProperty('When the plan last changed.')
  updatedAt: string;
}
