import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsObject, IsString, Length, Max, Min, ValidateNested } from 'class-validator';
import { Optional } from '../../kernel/http/optional';
import { AgentConfigDto } from '../../sessions';

/** `expires_in_seconds` bounds (docs/rooms.md, "API"): 1 second to 7 days. */
export const MAX_ROOM_TTL_SECONDS = 604_800;

export class CreateRoomDto {
  @ApiPropertyOptional({
    type: String,
    example: 'order-84213',
    nullable: true,
    description: 'Your reference, echoed in session.ended and the room events so that you can join on it.',
  })
  @Optional({ nullable: true })
  @IsString()
  @Length(1, 200)
  client_reference_id?: string | null;

  @ApiPropertyOptional({ type: AgentConfigDto, description: 'The agent the participant talks to.' })
  @Optional()
  @IsObject()
  @ValidateNested()
  @Type(() => AgentConfigDto)
  agent_config?: AgentConfigDto;

  @ApiPropertyOptional({ example: 'voice_default', description: 'Overrides agent_config.voice_id.' })
  @Optional()
  @IsString()
  @Length(1, 100)
  voice_id?: string;

  @ApiPropertyOptional({
    minimum: 1,
    maximum: MAX_ROOM_TTL_SECONDS,
    description: 'How long the link can be used to join; default ROOM_DEFAULT_TTL (1 hour).',
  })
  @Optional()
  @IsInt()
  @Min(1)
  @Max(MAX_ROOM_TTL_SECONDS)
  expires_in_seconds?: number;

  @ApiPropertyOptional({
    enum: ['agent_unreachable'],
    description: 'agent_unreachable: the agent is found unreachable while the room is set up (room.failed).',
  })
  @Optional()
  @IsIn(['agent_unreachable'])
  test_scenario?: 'agent_unreachable';
}
