import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsString, Matches, MaxLength } from 'class-validator';
import { Optional } from '../../kernel/http/optional';
import { AgentConfigDto, AgentConfigField } from '../../sessions';

export class CreatePhoneNumberDto {
  @ApiProperty({ example: '+14155550142', description: 'International format with a leading +.' })
  @IsString()
  @MaxLength(32)
  phone_number!: string;

  @AgentConfigField({ description: 'The agent that answers inbound calls to the number.' })
  agent_config!: AgentConfigDto;

  @ApiPropertyOptional({ default: false, description: 'Inbound calls to it are test calls: free.' })
  @Optional()
  @IsBoolean()
  test_mode?: boolean;
}

export class UpdatePhoneNumberDto {
  @AgentConfigField({ optional: true })
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

  @AgentConfigField({
    optional: true,
    description: "The agent that answers; absent: the tenant's registration's, or a default one.",
  })
  agent_config?: AgentConfigDto;
}
