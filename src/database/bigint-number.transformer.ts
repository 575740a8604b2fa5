import { ValueTransformer } from 'typeorm';

/** bigint columns hold money in minor units; pg returns them as strings, the app works in safe integers. */
export const BIGINT_NUMBER: ValueTransformer = {
  to: (value: number | null | undefined) => value,
  from: (value: string | null) => (value === null || value === undefined ? value : Number(value)),
};
