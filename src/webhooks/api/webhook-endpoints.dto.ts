import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsISO8601, IsOptional, IsString, MaxLength } from 'class-validator';

export class CreateEndpointDto {
  @ApiProperty({ example: 'https://crm.example.com/hooks/voice' })
  @IsString()
  @MaxLength(2048)
  url!: string;

  @ApiPropertyOptional({ example: ['session.*', 'campaign.completed'], default: ['*'] })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(100)
  @IsString({ each: true })
  events?: string[];

  @ApiPropertyOptional({ example: 'CRM sync' })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  description?: string;
}

export class UpdateEndpointDto {
  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(2048)
  url?: string;

  @ApiPropertyOptional({ example: ['*'] })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(100)
  @IsString({ each: true })
  events?: string[];

  @ApiPropertyOptional({ nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  description?: string | null;
}

export class RecoverDto {
  @ApiProperty({
    example: '2026-11-21T00:00:00Z',
    description: 'Re-send every delivery created since then that did not succeed.',
  })
  @IsISO8601({ strict: true })
  since!: string;
}
