/**
 * The agent's `analysis.structured_data` JSON Schema (analysis-schema.ts): which schemas are taken,
 * why others are refused (each reason a sentence after the field's name, as the API's 400 says it),
 * and how data extracted by a model is checked against one.
 */
import { compileAnalysisSchema, MAX_ANALYSIS_SCHEMA_BYTES, MAX_STRUCTURED_DATA_BYTES } from './analysis-schema';

const refusal = (schema: unknown): string | null => {
  const compiled = compileAnalysisSchema(schema);
  return 'refused' in compiled ? compiled.refused : null;
};
const problem = (schema: unknown, value: unknown): string | null => {
  const compiled = compileAnalysisSchema(schema);
  if ('refused' in compiled) throw new Error(compiled.refused);
  return compiled.problem(value);
};

const BOOKING = {
  type: 'object',
  properties: {
    appointment_booked: { type: 'boolean' },
    preferred_day: { type: ['string', 'null'], enum: ['Monday', 'Tuesday', null] },
    pattern: { type: 'string', description: 'A property may be named pattern.' },
  },
  required: ['appointment_booked', 'preferred_day'],
  additionalProperties: false,
};

describe('compileAnalysisSchema: the schemas taken', () => {
  it.each([
    ['a draft-07 object schema with union types and a property named pattern', BOOKING],
    [
      'an explicit draft-07 $schema, annotations and example',
      {
        $schema: 'http://json-schema.org/draft-07/schema#',
        type: 'object',
        title: 't',
        description: 'd',
        examples: [{}],
        properties: { a: { type: 'integer', example: 3 } },
      },
    ],
    [
      'a 2020-12 schema with $defs and $ref',
      {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        $defs: { n: { type: 'integer' } },
        properties: { a: { $ref: '#/$defs/n' } },
      },
    ],
    ['a format (not checked)', { type: 'object', properties: { day: { type: 'string', format: 'date' } } }],
    ['an array root', { type: 'array', items: { type: 'string' } }],
    ['the empty schema', {}],
  ])('%s', (_name, schema) => {
    expect(refusal(schema)).toBeNull();
  });
});

describe('compileAnalysisSchema: the schemas refused', () => {
  it.each([
    ['an array', [1], /must be a JSON Schema object/],
    ['a string', 'object', /must be a JSON Schema object/],
    ['null', null, /must be a JSON Schema object/],
    ['an unknown type', { type: 'objekt' }, /is not a JSON Schema ajv can compile \(schema is invalid: data\/type/],
    ['a misspelt keyword', { type: 'object', requried: ['a'] }, /unknown keyword: "requried"/],
    ['a remote $ref', { $ref: 'https://example.com/s.json' }, /can't resolve reference/],
    ['an unknown $schema', { $schema: 'http://json-schema.org/draft-04/schema#', type: 'object' }, /ajv can compile/],
    [
      'a pattern',
      { type: 'object', properties: { a: { type: 'string', pattern: '^(a+)+$' } } },
      /must not use pattern or patternProperties \(found at properties\.a\.pattern\)/,
    ],
    ['patternProperties', { type: 'object', patternProperties: { '^x': {} } }, /found at patternProperties/],
    [
      'a pattern in propertyNames',
      { type: 'object', propertyNames: { pattern: '^[a-z]+$' } },
      /found at propertyNames\.pattern/,
    ],
    [
      'a pattern in a definition',
      { definitions: { d: { type: 'string', pattern: 'x' } }, $ref: '#/definitions/d' },
      /found at definitions\.d\.pattern/,
    ],
    ['an $async schema', { $async: true, type: 'object' }, /must not be an \$async schema/],
    [
      'one over the size bound',
      { type: 'object', description: 'x'.repeat(MAX_ANALYSIS_SCHEMA_BYTES) },
      /must be at most 16384 bytes as JSON/,
    ],
  ])('%s', (_name, schema, reason) => {
    expect(refusal(schema)).toMatch(reason);
  });
});

describe('an analysis schema checks extracted data', () => {
  it('null for data that conforms, the reason for data that does not', () => {
    expect(problem(BOOKING, { appointment_booked: true, preferred_day: 'Tuesday' })).toBeNull();
    expect(problem(BOOKING, { appointment_booked: true, preferred_day: null })).toBeNull();
    expect(problem(BOOKING, { appointment_booked: 'yes', preferred_day: null })).toBe(
      'structured_data/appointment_booked must be boolean',
    );
    expect(problem(BOOKING, { appointment_booked: true })).toBe(
      "structured_data must have required property 'preferred_day'",
    );
    expect(problem(BOOKING, { appointment_booked: true, preferred_day: null, extra: 1 })).toBe(
      'structured_data must NOT have additional properties',
    );
  });

  it('missing data, and data over the bound, do not conform', () => {
    expect(problem({}, undefined)).toBe('structured_data is missing');
    expect(problem({}, { note: 'x'.repeat(MAX_STRUCTURED_DATA_BYTES) })).toBe(
      'structured_data exceeds 16384 bytes as JSON',
    );
  });

  it('a schema compiled many times keeps nothing between compilations (a fresh validator each)', () => {
    for (let i = 0; i < 3; i++) expect(problem({ $id: 'https://example.com/same', type: 'integer' }, 3)).toBeNull();
  });
});
