import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsString, MaxLength } from 'class-validator';
import { Optional } from '../../kernel/http/optional';
import { AgentConfigDto, AgentConfigField } from './agent-config.dto';

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
}
