import 'reflect-metadata';
import { BadRequestException, ValidationPipe, type ArgumentMetadata } from '@nestjs/common';
import { BodyValidationPipe } from '../../kernel/http/validation-pipe';
import { AgentConfigDto } from './agent-config.dto';
import { CreateCallDto } from './calls.dto';

/**
 * The precompiled check of POST /v1/calls's body (decision 171) must answer exactly as the
 * class-validator pipe does: the same DTO for a body it takes, and no opinion (hence the pipe's own
 * error) for any other. Each body goes through both pipes and the outcomes are compared.
 */
const OPTIONS = { whitelist: true, forbidNonWhitelisted: true, transform: true };
const metadata: ArgumentMetadata = { type: 'body', metatype: CreateCallDto, data: '' };

async function outcome(pipe: ValidationPipe, body: unknown): Promise<unknown> {
  try {
    // Parsed as the service parses a body (structuredClone would make objects of another realm here).
    const copy: unknown = body === undefined ? undefined : JSON.parse(JSON.stringify(body));
    return { value: await pipe.transform(copy, metadata) };
  } catch (err) {
    return { error: err instanceof BadRequestException ? err.getResponse() : String(err) };
  }
}

const base = { to: '+14155550100', from: '+14155550000', agent_config: { prompt: 'You are a benchmark.' } };
const BODIES: [string, unknown][] = [
  ['the usual body', { ...base, test_mode: true }],
  ['without test_mode', base],
  [
    'with every fast agent field',
    {
      ...base,
      agent_config: {
        prompt: 'p',
        voice_id: 'voice_default',
        first_message: 'Hi',
        max_duration_seconds: 60,
        interruptible: false,
      },
    },
  ],
  ['an unknown field', { ...base, extra: 1 }],
  ['an unknown agent field', { ...base, agent_config: { prompt: 'p', temperature: 1 } }],
  ['to missing', { from: base.from, agent_config: base.agent_config }],
  ['to null', { ...base, to: null }],
  ['to a number', { ...base, to: 14155550100 }],
  ['to too long', { ...base, to: '+1'.padEnd(33, '5') }],
  ['to of 32 characters', { ...base, to: '+1'.padEnd(32, '5') }],
  ['test_mode a string', { ...base, test_mode: 'true' }],
  ['test_mode null', { ...base, test_mode: null }],
  ['agent_config missing', { to: base.to, from: base.from }],
  ['agent_config an array', { ...base, agent_config: [] }],
  ['agent_config empty', { ...base, agent_config: {} }],
  ['prompt empty', { ...base, agent_config: { prompt: '' } }],
  ['prompt too long', { ...base, agent_config: { prompt: 'x'.repeat(20001) } }],
  ['prompt of 20000 emoji units', { ...base, agent_config: { prompt: '😀'.repeat(10001) } }],
  ['prompt a variation selector only', { ...base, agent_config: { prompt: '\ufe0f' } }],
  ['first_message empty', { ...base, agent_config: { prompt: 'p', first_message: '' } }],
  ['max_duration_seconds 0', { ...base, agent_config: { prompt: 'p', max_duration_seconds: 0 } }],
  ['max_duration_seconds 1.5', { ...base, agent_config: { prompt: 'p', max_duration_seconds: 1.5 } }],
  ['max_duration_seconds 3601', { ...base, agent_config: { prompt: 'p', max_duration_seconds: 3601 } }],
  ['interruptible null', { ...base, agent_config: { prompt: 'p', interruptible: null } }],
  ['voice_id too long', { ...base, agent_config: { prompt: 'p', voice_id: 'v'.repeat(101) } }],
  ['a test persona', { ...base, test_mode: true, test_persona: { script: ['Hello.'] } }],
  ['tools', { ...base, agent_config: { prompt: 'p', tools: [] } }],
  [
    'an analysis plan',
    {
      ...base,
      agent_config: {
        prompt: 'p',
        analysis: { summary: true, structured_data: { type: 'object' }, success_criteria: 'Booked.' },
      },
    },
  ],
  ['an analysis plan that asks nothing', { ...base, agent_config: { prompt: 'p', analysis: {} } }],
  [
    'an analysis schema ajv cannot compile',
    { ...base, agent_config: { prompt: 'p', analysis: { structured_data: { type: 'objekt' } } } },
  ],
  ['a body that is an array', [base]],
  ['no body', undefined],
];

describe('POST /v1/calls body: the precompiled check answers as class-validator does', () => {
  const slow = new ValidationPipe(OPTIONS);
  const fast = new BodyValidationPipe(OPTIONS);

  it.each(BODIES)('%s', async (_name, body) => {
    const expected = await outcome(slow, body);
    const actual = await outcome(fast, body);
    expect(actual).toEqual(expected);
    const value = (actual as { value?: unknown }).value;
    if (value !== undefined) {
      expect(value).toBeInstanceOf(CreateCallDto);
      expect((value as CreateCallDto).agent_config).toBeInstanceOf(AgentConfigDto);
    }
  });

  it('takes the usual body without class-validator, and leaves the others to it', async () => {
    const pipe = jest.spyOn(ValidationPipe.prototype, 'transform');
    try {
      await fast.transform({ ...base, test_mode: true }, metadata);
      expect(pipe).not.toHaveBeenCalled();
      await outcome(fast, { ...base, test_mode: 'yes' });
      expect(pipe).toHaveBeenCalledTimes(1);
    } finally {
      pipe.mockRestore();
    }
  });
});
