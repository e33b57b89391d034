import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandExecutor } from '../../runtime/commands/command-executor';
import { DncCommand, dncDecider, dncStream } from '../domain/dnc.decider';

export class ChangeDnc extends Command<void> {
  constructor(
    readonly tenantId: string,
    readonly change: DncCommand,
  ) {
    super();
  }
}

@CommandHandler(ChangeDnc)
export class ChangeDncHandler implements ICommandHandler<ChangeDnc> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ tenantId, change }: ChangeDnc): Promise<void> {
    await this.executor.execute(dncStream(tenantId), dncDecider, change, { tenantId }, { readYourWrites: true });
  }
}
