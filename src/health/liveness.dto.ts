import { ApiProperty, ApiSchema } from '@nestjs/swagger';

/** Documentation of the liveness answer. */
@ApiSchema({ name: 'Liveness' })
export class LivenessDto {
  @ApiProperty({ enum: ['ok'], description: 'The process answers; no dependency is checked.', example: 'ok' })
  status: 'ok';
}
