import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsEmail, IsIn, IsInt, IsString, Length, Max, Min, NotEquals } from 'class-validator';
import { Optional } from '../../kernel/http/optional';

export class CreateTenantDto {
  @ApiProperty({ example: 'Acme Dental' })
  @IsString()
  @Length(1, 200)
  name!: string;

  @ApiPropertyOptional({ example: 'ops@acme.example' })
  @Optional()
  @IsEmail()
  email?: string;

  @ApiPropertyOptional({ enum: ['starter', 'pro'], default: 'pro' })
  @Optional()
  @IsIn(['starter', 'pro'])
  plan?: 'starter' | 'pro';
}

export class GrantCreditDto {
  @ApiProperty({ example: 5000, description: 'Cents; negative values are debit adjustments.' })
  @IsInt()
  @NotEquals(0)
  @Min(-100_000_000)
  @Max(100_000_000)
  amount_cents!: number;
}

export class RebuildProjectionsDto {
  @ApiPropertyOptional({ example: 'tenants' })
  @Optional()
  @IsString()
  projection?: string;
}
