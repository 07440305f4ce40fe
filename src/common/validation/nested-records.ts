import { applyDecorators } from '@nestjs/common';
import { Type } from 'class-transformer';
import { IsObject, ValidateNested } from 'class-validator';

/**
 * A list of records of `record`'s class. Each item must be a JSON object: class-validator would
 * otherwise walk an array in an item's place as if it were a record and pass it (storing `{}`).
 */
export function NestedRecords(record: new () => object): PropertyDecorator {
  return applyDecorators(
    IsObject({ each: true, message: '$property must hold objects, one per item' }),
    ValidateNested({ each: true }),
    Type(() => record),
  );
}
