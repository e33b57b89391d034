import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsEmail, IsIn, IsString, Length } from 'class-validator';
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
