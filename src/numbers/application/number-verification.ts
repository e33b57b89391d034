import { Inject } from '@nestjs/common';
import { Command, CommandBus, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../kernel/clock';
import { newResourceId, withoutIdempotencyKey } from '../../kernel/idempotency-context';
import { CommandExecutor } from '../../runtime/commands/command-executor';
import { PlaceCallCommand } from '../../sessions';
import { phoneNumberDecider, phoneNumberStream, registrationOf, VERIFICATION } from '../domain/phone-number.decider';
import { DomainError } from '../../kernel/result';
import {
  type TenantVerificationCallsCommand,
  tenantVerificationCallsDecider,
  tenantVerificationCallsStream,
} from '../domain/tenant-verification-calls.decider';
import { spokenCode, VerificationCodes } from '../infra/verification-codes';

/** What the verification call's session shows as its agent: the code itself is sealed (decision 61). */
export const VERIFICATION_AGENT = { prompt: 'Phone number verification call: speaks a 6-digit code, then hangs up.' };

/**
 * Places a verification call to one of the tenant's numbers: a production call through the sessions
 * context (the media gateway, or the simulator without one), whose agent speaks a 6-digit code. The
 * code is made from the call's session id and only its hash is recorded, before the call is placed;
 * the call carries the code as a private prompt, sealed at rest. A retry under the same
 * Idempotency-Key names the same session, so it records nothing twice and places the same call.
 * The call is first counted against the tenant's daily calls over all its numbers, then against the
 * number's own limits (per tenant and for all tenants); one the number refuses is uncounted.
 */
export class RequestNumberVerification extends Command<{ sessionId: string; expiresAt: string; triesLeft: number }> {
  constructor(
    readonly tenantId: string,
    readonly phoneNumberId: string,
    readonly phoneNumber: string,
  ) {
    super();
  }
}

@CommandHandler(RequestNumberVerification)
export class RequestNumberVerificationHandler implements ICommandHandler<RequestNumberVerification> {
  constructor(
    private readonly executor: CommandExecutor,
    private readonly commands: CommandBus,
    private readonly codes: VerificationCodes,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ tenantId, phoneNumberId, phoneNumber }: RequestNumberVerification) {
    const sessionId = newResourceId('ses');
    const code = this.codes.codeFor(sessionId);
    const at = this.clock.now().toISOString();
    // The tenant's count is kept by session id, not by the key: a retry of a request the number
    // refused (and so uncounted) is counted again.
    const tenantCalls = (command: TenantVerificationCallsCommand) =>
      withoutIdempotencyKey(() =>
        this.executor.execute(tenantVerificationCallsStream(tenantId), tenantVerificationCallsDecider, command, {
          tenantId,
        }),
      );
    await tenantCalls({ type: 'count', sessionId, at });
    let state;
    try {
      ({ state } = await this.executor.execute(
        phoneNumberStream(phoneNumber),
        phoneNumberDecider,
        {
          type: 'request_verification',
          phoneNumberId,
          tenantId,
          sessionId,
          codeHash: this.codes.hash(phoneNumberId, code),
          at,
        },
        { tenantId },
      ));
    } catch (err) {
      // Refused by the number (its limits, not found, active already): the call is not the tenant's.
      if (err instanceof DomainError) await tenantCalls({ type: 'uncount', sessionId });
      throw err;
    }
    const recorded = registrationOf(state, tenantId, phoneNumberId)?.verification;
    const pending = recorded?.sessionId === sessionId ? recorded : null;
    await this.commands.execute(
      new PlaceCallCommand(tenantId, {
        sessionId,
        toNumber: phoneNumber,
        // The number calls itself: the gateway places it with the caller id its trunk allows.
        fromNumber: phoneNumber,
        agentConfig: VERIFICATION_AGENT,
        privatePrompt: spokenCode(code),
        testMode: false,
      }),
    );
    return {
      sessionId,
      expiresAt: pending?.expiresAt ?? new Date(this.clock.now().getTime() + VERIFICATION.codeTtlMs).toISOString(),
      triesLeft: pending?.triesLeft ?? VERIFICATION.tries,
    };
  }
}

export type VerificationOutcome =
  { outcome: 'verified' } | { outcome: 'wrong_code'; triesLeft: number } | { outcome: 'no_code_pending' };

/** Checks a code the tenant heard on the verification call: the number becomes active, or a try is used. */
export class ConfirmNumberVerification extends Command<VerificationOutcome> {
  constructor(
    readonly tenantId: string,
    readonly phoneNumberId: string,
    readonly phoneNumber: string,
    readonly code: string,
  ) {
    super();
  }
}

@CommandHandler(ConfirmNumberVerification)
export class ConfirmNumberVerificationHandler implements ICommandHandler<ConfirmNumberVerification> {
  constructor(
    private readonly executor: CommandExecutor,
    private readonly codes: VerificationCodes,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ tenantId, phoneNumberId, phoneNumber, code }: ConfirmNumberVerification) {
    const at = this.clock.now().toISOString();
    const { events, state } = await this.executor.execute(
      phoneNumberStream(phoneNumber),
      phoneNumberDecider,
      { type: 'confirm_verification', phoneNumberId, tenantId, codeHash: this.codes.hash(phoneNumberId, code), at },
      { tenantId },
      { readYourWrites: true },
    );
    if (state.owner === phoneNumberId) return { outcome: 'verified' } as const;
    const failed = events.find((e) => e.type === 'phone_number.verification_failed');
    if (failed)
      return { outcome: 'wrong_code', triesLeft: (failed.data as { tries_left: number }).tries_left } as const;
    // Nothing was checked: no code is pending (none asked, expired, or its tries used up).
    return { outcome: 'no_code_pending' } as const;
  }
}
