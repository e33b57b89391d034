import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsString, MaxLength } from 'class-validator';
import { Optional } from '../../kernel/http/optional';

export class CreateEndpointDto {
  @ApiProperty({ example: 'https://crm.example.com/hooks/voice' })
  @IsString()
  @MaxLength(2048)
  url!: string;

  @ApiPropertyOptional({ example: ['session.*', 'campaign.completed'], default: ['*'] })
  @Optional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(100)
  @IsString({ each: true })
  events?: string[];

  @ApiPropertyOptional({ example: 'CRM sync' })
  @Optional()
  @IsString()
  @MaxLength(500)
  description?: string;
}

export class UpdateEndpointDto {
  @ApiPropertyOptional()
  @Optional()
  @IsString()
  @MaxLength(2048)
  url?: string;

  @ApiPropertyOptional({ example: ['*'] })
  @Optional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(100)
  @IsString({ each: true })
  events?: string[];

  @ApiPropertyOptional({ type: String, nullable: true, description: 'null clears it.' })
  @Optional({ nullable: true })
  @IsString()
  @MaxLength(500)
  description?: string | null;
}

export class RecoverDto {
  @ApiProperty({
    example: '2026-11-21T00:00:00Z',
    description: 'Re-send every delivery created since then that did not succeed.',
  })
  @IsString()
  since!: string;
}
