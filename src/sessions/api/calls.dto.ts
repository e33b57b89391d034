import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsInt,
  IsObject,
  IsString,
  Length,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { Optional } from '../../kernel/http/optional';
import { AgentConfigDto, AgentConfigField } from './agent-config.dto';

/**
 * A simulated callee that speaks (`test_persona`, test mode only): each line of `script` said with the
 * embedded synthesis, `pause_ms` of listening between lines (docs/conversations-api.md, "Test persona calls").
 */
export class TestPersonaDto {
  @ApiProperty({
    type: [String],
    minItems: 1,
    maxItems: 50,
    example: ['Hi, I would like to book a cleaning.', 'Tuesday morning works.', 'Goodbye.'],
    description: 'What the callee says, one line per turn (1 to 50 lines of 1 to 500 characters).',
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(50)
  @IsString({ each: true })
  @Length(1, 500, { each: true, message: 'script lines must be 1 to 500 characters' })
  script!: string[];

  @ApiPropertyOptional({ default: 800, minimum: 0, maximum: 10000, description: 'Milliseconds between lines.' })
  @Optional()
  @IsInt()
  @Min(0)
  @Max(10000)
  pause_ms?: number;
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

  @AgentConfigField()
  agent_config!: AgentConfigDto;

  @ApiPropertyOptional({ default: false, description: 'Play the call on the test pool: no carrier, no credits.' })
  @Optional()
  @IsBoolean()
  test_mode?: boolean;

  @ApiPropertyOptional({
    type: TestPersonaDto,
    description:
      'Test mode only: the callee is simulated in audio, speaking each line of `script`, and the agent converses with it (in real time).',
  })
  @Optional()
  @ValidateNested()
  @IsObject()
  @Type(() => TestPersonaDto)
  test_persona?: TestPersonaDto;
}
