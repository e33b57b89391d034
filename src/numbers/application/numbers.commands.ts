import { Command, CommandBus, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { idFromSeed } from '../../kernel/ids';
import { newResourceId } from '../../kernel/idempotency-context';
import { notFound } from '../../kernel/result';
import { CommandExecutor } from '../../runtime/command-executor';
import { type AgentConfig, type InboundTestScript, PlaceCallCommand } from '../../sessions';
import {
  ownedBy,
  type PhoneNumberCommand,
  phoneNumberDecider,
  type PhoneNumberState,
  phoneNumberStream,
} from '../domain/phone-number.decider';

type WithoutIds<C> = C extends { phoneNumberId: string; tenantId: string } ? Omit<C, 'tenantId'> : never;

/** Registers, changes or releases one of the tenant's numbers (`phoneNumber` in E.164 form). */
export class ChangePhoneNumber extends Command<{ phoneNumberId: string; state: PhoneNumberState }> {
  constructor(
    readonly tenantId: string,
    readonly phoneNumber: string,
    readonly change:
      | Omit<Extract<WithoutIds<PhoneNumberCommand>, { type: 'register' }>, 'phoneNumberId' | 'phoneNumber'>
      | Extract<WithoutIds<PhoneNumberCommand>, { type: 'update' | 'release' }>,
  ) {
    super();
  }
}

@CommandHandler(ChangePhoneNumber)
export class ChangePhoneNumberHandler implements ICommandHandler<ChangePhoneNumber> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ tenantId, phoneNumber, change }: ChangePhoneNumber) {
    // Under an Idempotency-Key, a retried registration names the same registration (a no-op).
    const phoneNumberId = change.type === 'register' ? newResourceId('pn') : change.phoneNumberId;
    const command: PhoneNumberCommand =
      change.type === 'register'
        ? { ...change, phoneNumberId, tenantId, phoneNumber }
        : { ...change, phoneNumberId, tenantId };
    const result = await this.executor.execute(
      phoneNumberStream(phoneNumber),
      phoneNumberDecider,
      command,
      { tenantId },
      { readYourWrites: true },
    );
    return { phoneNumberId, state: result.state };
  }
}

/**
 * An inbound call to one of the tenant's numbers: a session with `direction: "inbound"` and the
 * number's agent. From the media gateway (`testScript` null: the gateway reports the call's signals)
 * or from the test route (`testScript`: the simulator plays it, free, as a test call). `callId`, the
 * gateway's id for the call, makes a repeated report the same session.
 */
export class ReceiveInboundCall extends Command<{ sessionId: string; agentConfig: AgentConfig }> {
  constructor(
    readonly tenantId: string,
    readonly phoneNumberId: string,
    readonly phoneNumber: string,
    readonly from: string,
    readonly testScript: InboundTestScript | null,
    readonly callId: string | null = null,
  ) {
    super();
  }
}

@CommandHandler(ReceiveInboundCall)
export class ReceiveInboundCallHandler implements ICommandHandler<ReceiveInboundCall> {
  constructor(
    private readonly executor: CommandExecutor,
    private readonly commands: CommandBus,
  ) {}

  async execute({ tenantId, phoneNumberId, phoneNumber, from, testScript, callId }: ReceiveInboundCall) {
    const state = await this.executor.state(phoneNumberStream(phoneNumber), phoneNumberDecider);
    const number = ownedBy(state, tenantId, phoneNumberId);
    if (!number) throw notFound('phone number', 'phone_number_id');
    const { sessionId } = await this.commands.execute(
      new PlaceCallCommand(tenantId, {
        ...(callId ? { sessionId: idFromSeed('ses', `inbound:${tenantId}:${callId}`) } : {}),
        to: number.phoneNumber,
        from,
        agentConfig: number.agentConfig,
        // A test inbound call is free and simulated whatever the number's mode.
        testMode: testScript !== null || number.testMode,
        direction: 'inbound',
        testScript,
      }),
    );
    return { sessionId, agentConfig: number.agentConfig };
  }
}
