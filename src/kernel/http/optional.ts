import { ValidateIf } from 'class-validator';

/**
 * An optional request field. Absent is fine; `null` is a 400 ("… must not be null"), unless the field
 * is `nullable` (then null means "clear it", as for an endpoint's description). class-validator's
 * `@IsOptional()` lets null through unchecked, which let it reach code that expected a value.
 */
export function Optional(options: { nullable?: boolean } = {}): PropertyDecorator {
  return ValidateIf((_object: object, value: unknown) => value !== undefined && !(options.nullable && value === null));
}
