/**
 * The agent's post-call analysis as requests give it (`agent_config.analysis`,
 * docs/conversations-api.md, "Post-call analysis"), and the checks class-validator cannot say with its
 * own decorators: a JSON Schema ajv compiles (analysis-schema.ts), criteria that are not blank, and a
 * plan that asks for something.
 */
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsObject, IsString, Length, ValidateBy } from 'class-validator';
import { Optional } from '../../kernel/http/optional';
import { type AnalysisSchema, compileAnalysisSchema, MAX_ANALYSIS_SCHEMA_BYTES } from '../domain/analysis-schema';

/** The bound on `success_criteria`: a paragraph, as a disposition's description is a line. */
export const MAX_SUCCESS_CRITERIA_CHARS = 2000;

/** The last schemas checked, so that the message of a refusal does not compile the schema again. */
const compiled = new WeakMap<object, AnalysisSchema | { refused: string }>();

function compiledSchema(value: object): AnalysisSchema | { refused: string } {
  let result = compiled.get(value);
  if (result === undefined) {
    result = compileAnalysisSchema(value);
    compiled.set(value, result);
  }
  return result;
}

/** A JSON Schema the analysis can use (a non-object is left to IsObject, which says so). */
function UsableJsonSchema(): PropertyDecorator {
  return ValidateBy({
    name: 'usableJsonSchema',
    validator: {
      validate: (value: unknown) =>
        typeof value !== 'object' || value === null || Array.isArray(value) || !('refused' in compiledSchema(value)),
      defaultMessage: (args) => {
        const value: unknown = args?.value;
        const result = typeof value === 'object' && value !== null ? compiledSchema(value) : null;
        const reason = result !== null && 'refused' in result ? result.refused : 'must be a JSON Schema object';
        return `${args?.property ?? 'structured_data'} ${reason}.`;
      },
    },
  });
}

function NotBlank(): PropertyDecorator {
  return ValidateBy({
    name: 'notBlank',
    validator: {
      validate: (value: unknown) => typeof value !== 'string' || value.trim() !== '',
      defaultMessage: (args) => `${args?.property ?? 'value'} must not be blank.`,
    },
  });
}

/** A plan whose parts all say "nothing" (absent, or `summary: false`): `asksForAnything` is false of it once valid. */
const asksNothing = (plan: Record<string, unknown>): boolean =>
  (plan.summary === undefined || plan.summary === false) &&
  plan.structured_data === undefined &&
  plan.success_criteria === undefined;

/**
 * A plan that asks for at least one thing. A non-object is left to IsObject, and a plan with a
 * malformed part (`summary: "yes"`) to that part's own check, which names it.
 */
export function AsksForAnalysis(): PropertyDecorator {
  return ValidateBy({
    name: 'asksForAnalysis',
    validator: {
      validate: (value: unknown) =>
        typeof value !== 'object' ||
        value === null ||
        Array.isArray(value) ||
        !asksNothing(value as Record<string, unknown>),
      defaultMessage: (args) =>
        `${args?.property ?? 'analysis'} must ask for something: summary: true, structured_data or success_criteria.`,
    },
  });
}

export class AgentAnalysisDto {
  @ApiPropertyOptional({ description: 'true: a short summary of the call (`analysis.summary`, else null).' })
  @Optional()
  @IsBoolean()
  summary?: boolean;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description:
      `A JSON Schema object (draft-07, or 2020-12 when its $schema says so; at most ${MAX_ANALYSIS_SCHEMA_BYTES} bytes as JSON) of the data to extract from the call. ` +
      'Compiled with ajv in strict mode (unknown keywords are refused); pattern, patternProperties and $async are refused.',
    example: {
      type: 'object',
      properties: { appointment_booked: { type: 'boolean' }, preferred_day: { type: ['string', 'null'] } },
      required: ['appointment_booked', 'preferred_day'],
    },
  })
  @Optional()
  @IsObject({ message: 'structured_data must be a JSON Schema object' })
  @UsableJsonSchema()
  structured_data?: Record<string, unknown>;

  @ApiPropertyOptional({
    maxLength: MAX_SUCCESS_CRITERIA_CHARS,
    example: 'The caller booked an appointment.',
    description: 'What makes the call a success; the model answers true or false (`analysis.success`, else null).',
  })
  @Optional()
  @Length(1, MAX_SUCCESS_CRITERIA_CHARS)
  @NotBlank()
  // Bottom first: a value that is not a string is told so before its length.
  @IsString()
  success_criteria?: string;
}
