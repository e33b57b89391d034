import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler, QueryBus } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../kernel/clock';
import { DomainError } from '../../kernel/result';
import { CommandExecutor } from '../../runtime/commands/command-executor';
import { GetTenant } from '../../tenants';
import {
  type SampleFile,
  type VoiceCloneCommand,
  voiceCloneDecider,
  type VoiceCloneState,
  voiceCloneStream,
} from '../domain/voice-clone.decider';

/** Records an upload whose samples are stored (DATA_DIR/voices/<voice id>/); training follows on a timer. */
export class UploadVoiceClone extends Command<void> {
  constructor(
    readonly tenantId: string,
    readonly voiceId: string,
    readonly name: string,
    readonly samples: readonly SampleFile[],
  ) {
    super();
  }
}

/** A step of the training job, or a deletion (the handler adds the time where one is needed). */
export class ChangeVoiceClone extends Command<VoiceCloneState> {
  constructor(
    readonly tenantId: string,
    readonly voiceId: string,
    readonly change:
      | Exclude<VoiceCloneCommand, { type: 'upload' | 'succeed' | 'delete' }>
      | Omit<Extract<VoiceCloneCommand, { type: 'succeed' }>, 'at'>
      | { type: 'delete' },
    /** Answer only once the read models show it (API requests). */
    readonly readYourWrites = false,
  ) {
    super();
  }
}

@CommandHandler(UploadVoiceClone)
export class UploadVoiceCloneHandler implements ICommandHandler<UploadVoiceClone> {
  constructor(
    private readonly executor: CommandExecutor,
    private readonly queries: QueryBus,
  ) {}

  async execute({ tenantId, voiceId, name, samples }: UploadVoiceClone): Promise<void> {
    const tenant = await this.queries.execute(new GetTenant(tenantId));
    if (tenant?.status === 'suspended')
      throw new DomainError('forbidden', 'This account is suspended; voices cannot be cloned.');
    await this.executor.execute(
      voiceCloneStream(voiceId),
      voiceCloneDecider,
      { type: 'upload', voiceId, name, samples },
      { tenantId },
      { readYourWrites: true },
    );
  }
}

@CommandHandler(ChangeVoiceClone)
export class ChangeVoiceCloneHandler implements ICommandHandler<ChangeVoiceClone> {
  constructor(
    private readonly executor: CommandExecutor,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ tenantId, voiceId, change, readYourWrites }: ChangeVoiceClone): Promise<VoiceCloneState> {
    const at = this.clock.now().toISOString();
    const command: VoiceCloneCommand =
      change.type === 'succeed' || change.type === 'delete' ? { ...change, at } : change;
    const result = await this.executor.execute(
      voiceCloneStream(voiceId),
      voiceCloneDecider,
      command,
      { tenantId },
      { readYourWrites },
    );
    return result.state;
  }
}
