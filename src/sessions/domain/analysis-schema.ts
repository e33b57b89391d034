import Ajv, { type Options, type ValidateFunction } from 'ajv';
import Ajv2020 from 'ajv/dist/2020';

/**
 * The JSON Schema of an agent's `analysis.structured_data`: checked once when the agent is given
 * (agent-config.dto.ts: a 400 naming the field), and used after each call to check what the model
 * extracted (session-analysis.ts). Both go through `compileAnalysisSchema`, so a schema the API took
 * is one the analysis can use.
 *
 * - Draft-07 (or no `$schema`), or 2020-12 when its `$schema` names it; ajv compiles it in strict
 *   mode: an unknown keyword (a typo such as `requried`) is refused rather than silently ignored.
 *   `format` is not checked (no format is known to the validator); `example` is allowed, as an annotation.
 * - No regular expression of the tenant's (`pattern`, `patternProperties`): a catastrophic one
 *   (`(a+)+$`) would run on the service's one event loop against a model's answer, which a caller can
 *   steer. No `$async` schema (its validation is a promise, not an answer), no remote `$ref`.
 * - At most MAX_ANALYSIS_SCHEMA_BYTES as JSON; the data extracted at most MAX_STRUCTURED_DATA_BYTES.
 */

/** The bound on the schema, as JSON (the bound on a tool's `parameters`). */
export const MAX_ANALYSIS_SCHEMA_BYTES = 16 * 1024;
/** The bound on the data extracted, as JSON: it goes into an event and every webhook. */
export const MAX_STRUCTURED_DATA_BYTES = 16 * 1024;

const OPTIONS: Options = {
  strict: true,
  // Union types (`["string", "null"]`) and loose tuples and required lists are ordinary schemas.
  strictTypes: false,
  strictTuples: false,
  strictRequired: false,
  allowUnionTypes: true,
  validateFormats: false,
  allErrors: false,
  logger: false,
};

/** Maps of names to schemas: a key there is a property's (or a definition's) name, not a keyword. */
const NAME_MAPS = new Set(['properties', 'definitions', '$defs', 'dependentSchemas', 'dependencies']);

/** Where the schema holds a regular expression of the tenant's, e.g. `properties.phone.pattern`; null when nowhere. */
function regularExpressionIn(value: unknown, path: string, parentKey: string | null): string | null {
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = regularExpressionIn(item, `${path}[${i}]`, null);
      if (found !== null) return found;
    }
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const inNameMap = parentKey !== null && NAME_MAPS.has(parentKey);
  for (const [key, inner] of Object.entries(value)) {
    const at = path === '' ? key : `${path}.${key}`;
    if (!inNameMap && key === 'pattern' && typeof inner === 'string') return at;
    if (!inNameMap && key === 'patternProperties') return at;
    const found = regularExpressionIn(inner, at, inNameMap ? null : key);
    if (found !== null) return found;
  }
  return null;
}

/** A compiled schema: `problem(value)` says how the value fails it, null when it conforms. */
export interface AnalysisSchema {
  problem(value: unknown): string | null;
}

/** The schema compiled, or why it cannot be used (a sentence that follows the field's name). */
export function compileAnalysisSchema(schema: unknown): AnalysisSchema | { refused: string } {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema))
    return { refused: 'must be a JSON Schema object' };
  const size = Buffer.byteLength(JSON.stringify(schema), 'utf8');
  if (size > MAX_ANALYSIS_SCHEMA_BYTES)
    return { refused: `must be at most ${MAX_ANALYSIS_SCHEMA_BYTES} bytes as JSON` };
  const regex = regularExpressionIn(schema, '', null);
  if (regex !== null)
    return {
      refused: `must not use pattern or patternProperties (found at ${regex}): regular expressions are not run on the model's answers; use enum, or check the value on your side`,
    };
  const declared = (schema as { $schema?: unknown }).$schema;
  // A fresh validator each time: ajv keeps every schema it compiled, which would grow with every call.
  const ajv = typeof declared === 'string' && declared.includes('2020-12') ? new Ajv2020(OPTIONS) : new Ajv(OPTIONS);
  ajv.addVocabulary(['example']);
  let validate: ValidateFunction;
  try {
    validate = ajv.compile(schema);
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    return { refused: `is not a JSON Schema ajv can compile (${reason.slice(0, 300)})` };
  }
  if ((validate as { $async?: boolean }).$async === true) return { refused: 'must not be an $async schema' };
  return {
    problem(value: unknown): string | null {
      if (value === undefined) return 'structured_data is missing';
      const bytes = Buffer.byteLength(JSON.stringify(value), 'utf8');
      if (bytes > MAX_STRUCTURED_DATA_BYTES)
        return `structured_data exceeds ${MAX_STRUCTURED_DATA_BYTES} bytes as JSON`;
      if (validate(value)) return null;
      return ajv.errorsText(validate.errors, { dataVar: 'structured_data' }).slice(0, 500);
    },
  };
}
