import { Module } from '@nestjs/common';

/** Provider HTTP lives only here. */
@Module({})
export class GatewayModule {}
