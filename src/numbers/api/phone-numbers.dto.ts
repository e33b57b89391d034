import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsBoolean,
  IsDefined,
  IsNotEmptyObject,
  IsObject,
  IsString,
  Matches,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { Optional } from '../../kernel/http/optional';
import { type AgentConfig, AgentConfigDto } from '../../sessions';

export class CreatePhoneNumberDto {
  @ApiProperty({ example: '+14155550142', description: 'International format with a leading +.' })
  @IsString()
  @MaxLength(32)
  phone_number!: string;

  @ApiProperty({ type: AgentConfigDto, description: 'The agent that answers inbound calls to the number.' })
  @IsDefined()
  @IsObject()
  @IsNotEmptyObject()
  @ValidateNested()
  @Type(() => AgentConfigDto)
  agent_config!: AgentConfigDto;

  @ApiPropertyOptional({ default: false, description: 'Inbound calls to it are test calls: free.' })
  @Optional()
  @IsBoolean()
  test_mode?: boolean;
}

export class UpdatePhoneNumberDto {
  @ApiPropertyOptional({ type: AgentConfigDto })
  @Optional()
  @IsObject()
  @IsNotEmptyObject()
  @ValidateNested()
  @Type(() => AgentConfigDto)
  agent_config?: AgentConfigDto;

  @ApiPropertyOptional()
  @Optional()
  @IsBoolean()
  test_mode?: boolean;
}

export class TestInboundCallDto {
  @ApiProperty({ example: '+14155550123', description: 'The caller, in international format.' })
  @IsString()
  @MaxLength(32)
  from_number!: string;

  @ApiPropertyOptional({
    default: true,
    description: 'true: the agent picks up and talks, completed; false: nobody answers (no_answer).',
  })
  @Optional()
  @IsBoolean()
  answered?: boolean;
}

export class ConfirmVerificationDto {
  @ApiProperty({ example: '123456', description: 'The 6 digits spoken on the verification call.' })
  @IsString()
  @Matches(/^[0-9]{6}$/, { message: 'code must be the 6 digits spoken on the verification call' })
  code!: string;
}

/** The operator's assignment of a number it holds on the trunk. */
export class AssignPhoneNumberDto {
  @ApiProperty({ example: '+14155550142', description: 'International format with a leading +.' })
  @IsString()
  @MaxLength(32)
  phone_number!: string;

  @ApiPropertyOptional({
    type: AgentConfigDto,
    description: "The agent that answers; absent: the tenant's registration's, or a default one.",
  })
  @Optional()
  @IsObject()
  @IsNotEmptyObject()
  @ValidateNested()
  @Type(() => AgentConfigDto)
  agent_config?: AgentConfigDto;
}

/** The agent as stored: only the fields given. */
export function agentConfigOf(dto: AgentConfigDto): AgentConfig {
  return {
    prompt: dto.prompt,
    ...(dto.voice_id ? { voice_id: dto.voice_id } : {}),
    ...(dto.dispositions
      ? { dispositions: dto.dispositions.map((d) => ({ code: d.code, description: d.description })) }
      : {}),
  };
}
