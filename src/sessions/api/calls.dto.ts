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
import { certainlyOfLength, fastBodyCheck, isPlainObject } from '../../kernel/http/validation-pipe';
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

const FAST_CALL_KEYS = new Set(['to', 'from', 'agent_config', 'test_mode']);
const FAST_AGENT_KEYS = new Set(['prompt', 'voice_id', 'first_message', 'max_duration_seconds', 'interruptible']);

/**
 * The usual `agent_config` (a prompt, perhaps a voice, a first message, a bound, barge-in) as the
 * pipe would make it, or undefined: anything else (tools, dispositions, language…) is class-validator's.
 */
function fastAgentConfig(value: unknown): AgentConfigDto | undefined {
  if (!isPlainObject(value)) return undefined;
  for (const key in value) if (!FAST_AGENT_KEYS.has(key)) return undefined;
  const { prompt, voice_id, first_message, max_duration_seconds, interruptible } = value;
  if (typeof prompt !== 'string' || !certainlyOfLength(prompt, 1, 20000)) return undefined;
  if (voice_id !== undefined && (typeof voice_id !== 'string' || !certainlyOfLength(voice_id, 0, 100)))
    return undefined;
  if (first_message !== undefined && (typeof first_message !== 'string' || !certainlyOfLength(first_message, 1, 1000)))
    return undefined;
  if (
    max_duration_seconds !== undefined &&
    !(
      Number.isInteger(max_duration_seconds) &&
      Number(max_duration_seconds) >= 1 &&
      Number(max_duration_seconds) <= 3600
    )
  )
    return undefined;
  if (interruptible !== undefined && typeof interruptible !== 'boolean') return undefined;
  return Object.assign(new AgentConfigDto(), value);
}

// The body of POST /v1/calls as most requests send it, checked without class-validator's per-request
// reflection; every other body (a test persona, an error to report) takes the pipe (decision 171).
fastBodyCheck(CreateCallDto, (body) => {
  if (!isPlainObject(body)) return undefined;
  for (const key in body) if (!FAST_CALL_KEYS.has(key)) return undefined;
  const { to, from, test_mode } = body;
  if (typeof to !== 'string' || !certainlyOfLength(to, 0, 32)) return undefined;
  if (typeof from !== 'string' || !certainlyOfLength(from, 0, 32)) return undefined;
  if (test_mode !== undefined && typeof test_mode !== 'boolean') return undefined;
  const agent_config = fastAgentConfig(body.agent_config);
  if (!agent_config) return undefined;
  return Object.assign(new CreateCallDto(), body, { agent_config });
});
