import { ApiProperty } from '@nestjs/swagger';
import { IsInt, Max, Min, NotEquals } from 'class-validator';

/** Largest amount one request names, in cents (a million dollars). */
export const MAX_REQUEST_CENTS = 100_000_000;

export class UpdateCreditsDto {
  @ApiProperty({
    example: 500,
    description: 'Warn (credits.low_balance) when the balance drops below this, in cents; 0: never.',
  })
  @IsInt()
  @Min(0)
  @Max(MAX_REQUEST_CENTS)
  threshold_cents!: number;
}

export class CreateTopupDto {
  @ApiProperty({ example: 5000, description: 'Cents to add once the payment settles.' })
  @IsInt()
  @Min(1)
  @Max(MAX_REQUEST_CENTS)
  amount_cents!: number;
}

export class GrantCreditDto {
  @ApiProperty({ example: 5000, description: 'Cents; negative values are debit adjustments.' })
  @IsInt()
  @NotEquals(0)
  @Min(-MAX_REQUEST_CENTS)
  @Max(MAX_REQUEST_CENTS)
  amount_cents!: number;
}
