import { applyDecorators, Logger } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsDefined,
  IsIn,
  IsInt,
  IsNotEmptyObject,
  IsObject,
  IsString,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { Optional } from '../../kernel/http/optional';
import { normalisePhoneNumber } from '../../kernel/phone-number';
import type { AgentConfig } from '../domain/session.decider';
import { TRANSFER_MODES, type TransferMode } from '../domain/session.state';
import { ensurePublicUrl, webhooksSettings } from '../../webhooks';
import { type AppConfig, settingsOf } from '../../config/config';
import { AgentAnalysisDto, AsksForAnalysis } from './agent-analysis.dto';
import {
  AgentToolDto,
  canonicalLanguage,
  IsInternationalPhoneNumber,
  IsLanguageTag,
  MAX_AGENT_TOOLS,
  UniqueToolNames,
} from './agent-tool.dto';

const logger = new Logger('AgentConfig');

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

/** The bound on a warm transfer's briefing: about a minute of speech. */
export const MAX_TRANSFER_SUMMARY_CHARS = 1000;
/** agent_config.endpointing_ms: from a tenth of a second (a provider's fastest) to 5 s (a slow, thoughtful caller). */
export const MIN_ENDPOINTING_MS = 100;
export const MAX_ENDPOINTING_MS = 5000;

/** The bound on a voicemail message: about a minute of speech. */
export const MAX_VOICEMAIL_MESSAGE_CHARS = 1000;

/** `agent_config.voicemail`: answering-machine detection on outbound calls and the message left on one. */
export class AgentVoicemailDto {
  @ApiPropertyOptional({
    default: true,
    description: 'Whether the callee of an outbound call is screened for a machine.',
  })
  @Optional()
  @IsBoolean()
  detect?: boolean;

  @ApiPropertyOptional({
    maxLength: MAX_VOICEMAIL_MESSAGE_CHARS,
    description:
      'Spoken after the machine’s beep (or the greeting’s end), then the call ends; absent: hung up on at once.',
  })
  @Optional()
  @Matches(/\S/, { message: 'message must not be blank.' })
  @Length(1, MAX_VOICEMAIL_MESSAGE_CHARS)
  @IsString()
  message?: string;
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

  @ApiPropertyOptional({
    example: 'Hi, this is Ava from Northwind Dental. How can I help?',
    maxLength: 1000,
    description: 'Spoken when the conversation starts. Default: a short greeting.',
  })
  @Optional()
  @IsString()
  @Length(1, 1000)
  first_message?: string;

  @ApiPropertyOptional({ example: 'en-US', default: 'en-US', description: 'A BCP 47 language tag.' })
  @Optional()
  @IsString()
  @IsLanguageTag()
  language?: string;

  @ApiPropertyOptional({
    example: '+14155550123',
    description: 'International format: the number the agent may transfer the call to.',
  })
  @Optional()
  @IsString()
  @IsInternationalPhoneNumber()
  transfer_number?: string;

  @ApiPropertyOptional({
    enum: TRANSFER_MODES,
    default: 'cold',
    description:
      '`cold`: the caller is handed to `transfer_number` (a SIP REFER). `warm`: the platform calls `transfer_number`, tells whoever answers `transfer_summary` (or a summary of the conversation), then connects the caller to them.',
  })
  @Optional()
  @IsIn(TRANSFER_MODES)
  transfer_mode?: TransferMode;

  @ApiPropertyOptional({
    maxLength: MAX_TRANSFER_SUMMARY_CHARS,
    example: 'A caller wants to move their Tuesday appointment.',
    description: 'Warm transfers: spoken to the person who answers before the caller is connected.',
  })
  @Optional()
  @Matches(/\S/, { message: 'transfer_summary must not be blank.' })
  @Length(1, MAX_TRANSFER_SUMMARY_CHARS)
  @IsString()
  transfer_summary?: string;

  @ApiPropertyOptional({
    type: [AgentToolDto],
    maxItems: MAX_AGENT_TOOLS,
    description: 'Tools the model may call, with unique names (`transfer_call` and `end_call` are built in).',
  })
  @Optional()
  @IsArray()
  @ArrayMaxSize(MAX_AGENT_TOOLS)
  @UniqueToolNames()
  @ValidateNested({ each: true })
  @Type(() => AgentToolDto)
  tools?: AgentToolDto[];

  @ApiPropertyOptional({ default: 3600, minimum: 1, maximum: 3600, description: 'The conversation’s bound.' })
  @Optional()
  @IsInt()
  @Min(1)
  @Max(3600)
  max_duration_seconds?: number;

  @ApiPropertyOptional({
    minimum: MIN_ENDPOINTING_MS,
    maximum: MAX_ENDPOINTING_MS,
    description:
      'The silence (ms) that ends the caller’s turn. Absent: 500 with the embedded recogniser; a streaming recogniser’s own endpointing (its final result), bounded by 500 ms of silence heard by the platform.',
  })
  @Optional()
  @Min(MIN_ENDPOINTING_MS)
  @Max(MAX_ENDPOINTING_MS)
  // Last: a non-integer is refused as that, before its bounds are checked.
  @IsInt()
  endpointing_ms?: number;

  @ApiPropertyOptional({ default: true, description: 'Whether the caller’s speech stops the agent’s (barge-in).' })
  @Optional()
  @IsBoolean()
  interruptible?: boolean;

  @ApiPropertyOptional({
    type: AgentVoicemailDto,
    description:
      'Outbound calls: whether an answering machine is detected (default true) and the message the agent leaves after its beep.',
  })
  @Optional()
  @ValidateNested()
  @IsObject()
  @Type(() => AgentVoicemailDto)
  voicemail?: AgentVoicemailDto;

  @ApiPropertyOptional({
    type: AgentAnalysisDto,
    description:
      'What is analysed once the call has ended (`session.analysis_completed`, the session’s `analysis`): a summary, structured data, success. At least one.',
  })
  @Optional()
  @AsksForAnalysis()
  @ValidateNested()
  @IsObject()
  @Type(() => AgentAnalysisDto)
  analysis?: AgentAnalysisDto;
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
    ...(dto.first_message !== undefined ? { first_message: dto.first_message } : {}),
    ...(dto.language !== undefined ? { language: canonicalLanguage(dto.language) ?? dto.language } : {}),
    ...(dto.transfer_number !== undefined
      ? { transfer_number: normalisePhoneNumber(dto.transfer_number) ?? dto.transfer_number }
      : {}),
    ...(dto.transfer_mode !== undefined ? { transfer_mode: dto.transfer_mode } : {}),
    ...(dto.transfer_summary !== undefined ? { transfer_summary: dto.transfer_summary } : {}),
    ...(dto.tools
      ? {
          tools: dto.tools.map((t) => ({
            name: t.name,
            ...(t.description !== undefined ? { description: t.description } : {}),
            ...(t.parameters !== undefined ? { parameters: t.parameters } : {}),
            url: t.url,
            ...(t.timeout_ms !== undefined ? { timeout_ms: t.timeout_ms } : {}),
          })),
        }
      : {}),
    ...(dto.max_duration_seconds !== undefined ? { max_duration_seconds: dto.max_duration_seconds } : {}),
    ...(dto.endpointing_ms !== undefined ? { endpointing_ms: dto.endpointing_ms } : {}),
    ...(dto.interruptible !== undefined ? { interruptible: dto.interruptible } : {}),
    ...(dto.voicemail
      ? {
          voicemail: {
            ...(dto.voicemail.detect !== undefined ? { detect: dto.voicemail.detect } : {}),
            ...(dto.voicemail.message !== undefined ? { message: dto.voicemail.message } : {}),
          },
        }
      : {}),
    ...(dto.analysis
      ? {
          analysis: {
            ...(dto.analysis.summary !== undefined ? { summary: dto.analysis.summary } : {}),
            ...(dto.analysis.structured_data !== undefined ? { structured_data: dto.analysis.structured_data } : {}),
            ...(dto.analysis.success_criteria !== undefined ? { success_criteria: dto.analysis.success_criteria } : {}),
          },
        }
      : {}),
  };
}

/**
 * The agent as the platform keeps it, once what the body's validation could not check is checked:
 * each tool's URL follows the webhook URL rules (public https; WEBHOOK_ALLOW_PRIVATE_URLS lifts them),
 * which needs DNS. A refusal is a 400 naming the field, e.g. `agent_config.tools[0].url`; the URL is
 * kept normalised.
 */
export async function checkAgentConfig(
  dto: AgentConfigDto,
  config: AppConfig,
  tenantId: string,
  field = 'agent_config',
): Promise<AgentConfig> {
  const agent = agentConfigOf(dto);
  if (!agent.tools) return agent;
  const allowPrivate = settingsOf(config, webhooksSettings).allowPrivateUrls;
  const tools = [];
  for (const [i, tool] of agent.tools.entries()) {
    const param = `${field}.tools[${i}].url`;
    const url = await ensurePublicUrl(tool.url, {
      allowPrivate,
      param,
      log: (reason) => logger.warn(`tenant ${tenantId}: ${param} refused: ${reason}`),
    });
    tools.push({ ...tool, url });
  }
  return { ...agent, tools };
}
