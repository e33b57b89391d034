import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsDefined,
  IsNotEmptyObject,
  IsObject,
  IsString,
  Length,
  Matches,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { Optional } from '../../kernel/http/optional';
import type { AgentConfig } from '../domain/session.decider';

export class DispositionDto {
  @ApiProperty({ example: 'appointment_booked' })
  @IsString()
  @Matches(/^[a-z0-9_]{1,64}$/, { message: 'code must be 1-64 lowercase letters, digits or underscores' })
  code!: string;

  @ApiProperty({ example: 'The caller booked an appointment.' })
  @IsString()
  @MaxLength(500)
  description!: string;
}

export class AgentConfigDto {
  @ApiProperty({ example: 'You are Ava, a friendly scheduling assistant for Northwind Dental.' })
  @IsString()
  @Length(1, 20000)
  prompt!: string;

  @ApiPropertyOptional({ example: 'voice_default' })
  @Optional()
  @IsString()
  @MaxLength(100)
  voice_id?: string;

  @ApiPropertyOptional({ type: [DispositionDto] })
  @Optional()
  @IsArray()
  @ArrayMaxSize(50)
  @ValidateNested({ each: true })
  @Type(() => DispositionDto)
  dispositions?: DispositionDto[];
}

/** The agent as the platform keeps it: a validated DTO copied field by field (no class instance, no extra keys). */
export function agentConfigOf(dto: AgentConfigDto): AgentConfig {
  return {
    prompt: dto.prompt,
    ...(dto.voice_id ? { voice_id: dto.voice_id } : {}),
    ...(dto.dispositions
      ? { dispositions: dto.dispositions.map((d) => ({ code: d.code, description: d.description })) }
      : {}),
  };
}

/**
 * The body of `POST /v1/calls`. The wire names `to` and `from` are the request's; inside, the numbers
 * are `toNumber` and `fromNumber` from here on, end to end, with one mapping at each edge:
 * request `to` → (the controller) `PlaceCall.toNumber` → (the decider) `to_number` of the stored
 * `session.placed` and of the catalog payloads, hence webhooks → (evolve) `Live.toNumber`, and (the
 * sessions projection) the `to_number` column, read as `SessionEntity.toNumber` → (the session view)
 * the response's `to_number`. Likewise `from`. The stored and wire names never change.
 */
export class CreateCallDto {
  @ApiProperty({ example: '+14155550100', description: 'International format with a leading +.' })
  @IsString()
  @MaxLength(32)
  to!: string;

  @ApiProperty({ example: '+14155550000' })
  @IsString()
  @MaxLength(32)
  from!: string;

  @ApiProperty({ type: AgentConfigDto })
  @IsDefined()
  @IsObject()
  @IsNotEmptyObject()
  @ValidateNested()
  @Type(() => AgentConfigDto)
  agent_config!: AgentConfigDto;

  @ApiPropertyOptional({ default: false, description: 'Play the call on the test pool: no carrier, no credits.' })
  @Optional()
  @IsBoolean()
  test_mode?: boolean;
}
