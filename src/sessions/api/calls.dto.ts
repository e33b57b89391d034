import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsString, MaxLength } from 'class-validator';
import { Optional } from '../../kernel/http/optional';
import { AgentConfigDto, AgentConfigField } from './agent-config.dto';

export class CreateCallDto {
  @ApiProperty({ example: '+14155550100', description: 'International format with a leading +.' })
  @IsString()
  @MaxLength(32)
  to!: string;

  @ApiProperty({ example: '+14155550000' })
  @IsString()
  @MaxLength(32)
  from!: string;

  @AgentConfigField()
  agent_config!: AgentConfigDto;

  @ApiPropertyOptional({ default: false, description: 'Play the call on the test pool: no carrier, no credits.' })
  @Optional()
  @IsBoolean()
  test_mode?: boolean;
}
