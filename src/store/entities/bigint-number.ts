import { ValueTransformer } from 'typeorm';

/** `bigint` columns read back as numbers: amounts stay below 2^53 (STORE_LIMITS.amount). */
export const BIGINT_AS_NUMBER: ValueTransformer = {
  to: (value: number | null | undefined) => value,
  from: (value: string | null) => (value === null ? null : Number(value)),
};
