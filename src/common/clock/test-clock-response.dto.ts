import { ApiSchema } from '@nestjs/swagger';
import { ApiTimeProperty } from '../api-docs/api-properties';

/** Documentation of the test clock's answer. */
@ApiSchema({ name: 'TestClock' })
export class TestClockResponseDto {
  @ApiTimeProperty('What the billing clock reads now, for every replica.')
  now: string;
}
