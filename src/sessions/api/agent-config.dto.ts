import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
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

/**
 * The agent of a call, as requests give it (`agent_config`): one class for every route that takes
 * one (calls, phone numbers, campaigns, rooms), so the OpenAPI document describes it once, as the
 * `AgentConfigDto` schema. Exported through `src/sessions/index.ts`.
 */
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

/**
 * An `agent_config` field: an AgentConfigDto object, validated as a whole (a non-object is refused as
 * "must be a non-empty object"), required unless `optional`. The decorators are applied in the order
 * they would be written above the field, bottom first, so the first error reported stays the same.
 */
export function AgentConfigField(options: { optional?: boolean; description?: string } = {}): PropertyDecorator {
  const doc = { type: AgentConfigDto, ...(options.description ? { description: options.description } : {}) };
  return applyDecorators(
    Type(() => AgentConfigDto),
    ValidateNested(),
    IsNotEmptyObject(),
    IsObject(),
    options.optional ? Optional() : IsDefined(),
    options.optional ? ApiPropertyOptional(doc) : ApiProperty(doc),
  );
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
