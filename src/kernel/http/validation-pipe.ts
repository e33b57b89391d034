import { ArgumentMetadata, ValidationPipe, type Type } from '@nestjs/common';

/**
 * A precompiled check of one body DTO, for a hot route (POST /v1/calls): it returns the DTO as the
 * global ValidationPipe would have made it when the body is, beyond doubt, one the pipe accepts, and
 * `undefined` otherwise. It never refuses: a body it does not vouch for goes through class-validator,
 * which then gives every error, so the answers stay exactly the pipe's (decision 171).
 */
export type FastBodyCheck<T> = (body: unknown) => T | undefined;

const fastChecks = new Map<Type<unknown>, FastBodyCheck<unknown>>();

/** Registers the fast check of a body DTO; called once, beside the DTO. */
export function fastBodyCheck<T>(dto: Type<T>, check: FastBodyCheck<T>): void {
  fastChecks.set(dto, check);
}

/**
 * The global ValidationPipe, with a precompiled path for the DTOs that registered one: class-validator
 * and class-transformer were a sizeable share of the CPU of a whole POST /v1/calls (reflection and
 * metadata lookups on every request; the figures: docs/benchmarks.md).
 */
export class BodyValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const check = metadata.type === 'body' && metadata.metatype ? fastChecks.get(metadata.metatype) : undefined;
    const checked = check ? check(value) : undefined;
    if (checked !== undefined) return checked;
    return super.transform(value, metadata);
  }
}

/** A plain (JSON) object: not an array, not null, no class. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

// UTF-16 units that validator.js `isLength` does not count one for one (surrogates, variation selectors).
const UNEVENLY_COUNTED = /[\ud800-\udfff]|\ufe0e|\ufe0f/;

/**
 * True when class-validator's `Length(min, max)` / `MaxLength(max)` certainly passes. validator.js
 * counts a surrogate pair or a character with its variation selector as one: a text with none of
 * those has exactly its UTF-16 length; any other is left to class-validator.
 */
export function certainlyOfLength(value: string, min: number, max: number): boolean {
  return value.length >= min && value.length <= max && !UNEVENLY_COUNTED.test(value);
}
