import { Command, CommandBus, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { idFromSeed } from '../../kernel/ids';
import { newResourceId } from '../../kernel/idempotency-context';
import { notFound } from '../../kernel/result';
import { CommandExecutor } from '../../runtime/commands/command-executor';
import { type AgentConfig, type InboundTestScript, PlaceCallCommand } from '../../sessions';
import {
  ownerOf,
  type PhoneNumberCommand,
  phoneNumberDecider,
  type PhoneNumberState,
  phoneNumberStream,
  registrationOf,
} from '../domain/phone-number.decider';

type WithoutIds<C> = C extends { phoneNumberId: string; tenantId: string } ? Omit<C, 'tenantId'> : never;
type NewRegistration<C> = C extends { type: 'register' | 'assign' } ? Omit<C, 'phoneNumberId' | 'phoneNumber'> : never;

/**
 * Registers (the tenant itself), assigns (the operator), changes or releases one of the tenant's
 * numbers (`phoneNumber` in E.164 form).
 */
export class ChangePhoneNumber extends Command<{ phoneNumberId: string; state: PhoneNumberState }> {
  constructor(
    readonly tenantId: string,
    readonly phoneNumber: string,
    readonly change:
      | NewRegistration<WithoutIds<PhoneNumberCommand>>
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
    const phoneNumberId = newResourceId('pn');
    const command: PhoneNumberCommand =
      change.type === 'register'
        ? { ...change, phoneNumberId, tenantId, phoneNumber }
        : change.type === 'assign'
          ? { ...change, phoneNumberId, tenantId, phoneNumber }
          : { ...change, tenantId };
    const result = await this.executor.execute(
      phoneNumberStream(phoneNumber),
      phoneNumberDecider,
      command,
      { tenantId },
      { readYourWrites: true },
    );
    // An assignment keeps the tenant's registration of the number when it has one.
    const registration = registrationOf(result.state, tenantId);
    return { phoneNumberId: registration?.phoneNumberId ?? command.phoneNumberId, state: result.state };
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
    // A call from the gateway reaches the number's owner only; a simulated test call, any registration.
    const number = testScript === null ? ownerOf(state) : registrationOf(state, tenantId, phoneNumberId);
    if (!number || number.tenantId !== tenantId || number.phoneNumberId !== phoneNumberId)
      throw notFound('phone number', 'phone_number_id');
    const { sessionId } = await this.commands.execute(
      new PlaceCallCommand(tenantId, {
        ...(callId ? { sessionId: idFromSeed('ses', `inbound:${tenantId}:${callId}`) } : {}),
        toNumber: number.phoneNumber,
        fromNumber: from,
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
