/**
 * An agent's tool as requests give it (`agent_config.tools[i]`), and the checks class-validator
 * cannot say with its own decorators: a JSON Schema object of bounded size, names that are unique
 * and not the platform's built-in tools, a BCP 47 language, an E.164 transfer number. The tool's URL
 * follows the webhook URL rules, which need DNS: checked after the body by `checkAgentConfig`.
 */
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsObject, IsString, Matches, Max, MaxLength, Min, ValidateBy } from 'class-validator';
import { Optional } from '../../kernel/http/optional';
import { normalisePhoneNumber } from '../../kernel/phone-number';
import { RESERVED_TOOL_NAMES } from '../domain/session.state';

/** The bound on a tool's `parameters`, serialised as JSON (a schema is a page, not a document store). */
export const MAX_TOOL_PARAMETERS_BYTES = 16 * 1024;
export const MAX_AGENT_TOOLS = 20;

/** The canonical form of a well-formed BCP 47 tag (`en-us` → `en-US`), or null. */
export function canonicalLanguage(tag: string): string | null {
  if (!/^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$/.test(tag) || tag.length > 35) return null;
  try {
    return Intl.getCanonicalLocales(tag)[0] ?? null;
  } catch {
    return null; // RangeError: not a structurally valid language tag
  }
}

/** A BCP 47 language tag such as `en-US` or `fr-FR`. */
export function IsLanguageTag(): PropertyDecorator {
  return ValidateBy({
    name: 'isLanguageTag',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && canonicalLanguage(value) !== null,
      defaultMessage: (args) => `${args?.property ?? 'language'} must be a BCP 47 language tag such as en-US.`,
    },
  });
}

/** A valid phone number in international format (E.164 once normalised). */
export function IsInternationalPhoneNumber(): PropertyDecorator {
  return ValidateBy({
    name: 'isInternationalPhoneNumber',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && normalisePhoneNumber(value) !== null,
      defaultMessage: (args) =>
        `${args?.property ?? 'number'} must be a valid phone number in international format, e.g. +14155550100.`,
    },
  });
}

function NotReservedToolName(): PropertyDecorator {
  return ValidateBy({
    name: 'notReservedToolName',
    validator: {
      validate: (value: unknown) => typeof value !== 'string' || !RESERVED_TOOL_NAMES.includes(value),
      defaultMessage: () => `name must not be ${RESERVED_TOOL_NAMES.join(' or ')}: the platform's built-in tools.`,
    },
  });
}

function BoundedJson(maxBytes: number): PropertyDecorator {
  return ValidateBy({
    name: 'boundedJson',
    validator: {
      validate: (value: unknown) => Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8') <= maxBytes,
      defaultMessage: (args) => `${args?.property ?? 'value'} must be at most ${maxBytes} bytes as JSON.`,
    },
  });
}

/** Tools whose names are all different (a model could not tell two of the same name apart). */
export function UniqueToolNames(): PropertyDecorator {
  return ValidateBy({
    name: 'uniqueToolNames',
    validator: {
      validate: (value: unknown) => {
        if (!Array.isArray(value)) return true;
        const names = value.map((t: unknown): unknown =>
          typeof t === 'object' && t !== null ? (t as { name?: unknown }).name : t,
        );
        return new Set(names).size === names.length;
      },
      defaultMessage: (args) => `${args?.property ?? 'tools'} must have unique names.`,
    },
  });
}

export class AgentToolDto {
  @ApiProperty({ example: 'book_appointment', pattern: '^[a-zA-Z0-9_-]{1,64}$' })
  @IsString()
  @Matches(/^[a-zA-Z0-9_-]{1,64}$/, { message: 'name must be 1-64 letters, digits, underscores or hyphens' })
  @NotReservedToolName()
  name!: string;

  @ApiPropertyOptional({ example: 'Books an appointment at the given time.', maxLength: 1000 })
  @Optional()
  @IsString()
  @MaxLength(1000)
  description?: string;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: `A JSON Schema object describing the arguments (at most ${MAX_TOOL_PARAMETERS_BYTES} bytes as JSON).`,
    example: { type: 'object', properties: { time: { type: 'string' } }, required: ['time'] },
  })
  @Optional()
  @IsObject({ message: 'parameters must be a JSON Schema object' })
  @BoundedJson(MAX_TOOL_PARAMETERS_BYTES)
  parameters?: Record<string, unknown>;

  @ApiProperty({
    example: 'https://api.example.com/tools/book',
    description:
      'Where the platform POSTs the call, signed as webhooks are. Public https unless WEBHOOK_ALLOW_PRIVATE_URLS is set.',
  })
  @IsString()
  @MaxLength(2048)
  url!: string;

  @ApiPropertyOptional({ default: 5000, minimum: 100, maximum: 60000, description: 'Milliseconds.' })
  @Optional()
  @IsInt()
  @Min(100)
  @Max(60000)
  timeout_ms?: number;
}
