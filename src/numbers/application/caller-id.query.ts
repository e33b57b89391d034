import { Injectable } from '@nestjs/common';
import { IQueryHandler, Query, QueryBus, QueryHandler } from '@nestjs/cqrs';
import { ApiError } from '../../kernel/http/api-error';
import { CallerIds } from '../../sessions';
import { NumbersQueries } from './numbers.queries';

/**
 * Whether the tenant owns the number (E.164) now: its registration is the number's active owner,
 * assigned by the operator or verified by a call. A registration pending verification, or active
 * only because it is in test mode, owns nothing. A production call's caller ID must pass this.
 */
export class NumberOwnedBy extends Query<boolean> {
  constructor(
    readonly tenantId: string,
    readonly phoneNumber: string,
  ) {
    super();
  }
}

@QueryHandler(NumberOwnedBy)
export class NumberOwnedByHandler implements IQueryHandler<NumberOwnedBy> {
  constructor(private readonly numbers: NumbersQueries) {}

  async execute({ tenantId, phoneNumber }: NumberOwnedBy): Promise<boolean> {
    const owner = await this.numbers.owner(phoneNumber);
    return owner !== null && owner.tenantId === tenantId;
  }
}

/**
 * For API entry points that take a production call's caller ID (calls, campaigns): resolves when the
 * tenant owns the number, else throws the 422 `from_number_not_owned` naming `param`. The message is
 * the same whoever holds the number, so that it tells nobody who does (decision 178).
 */
export async function ensureCallerIdOwned(
  queries: QueryBus,
  tenantId: string,
  phoneNumber: string,
  param: string,
): Promise<void> {
  if (await queries.execute(new NumberOwnedBy(tenantId, phoneNumber))) return;
  throw new ApiError(
    422,
    'from_number_not_owned',
    `${param} ${phoneNumber} is not an active phone number of yours: a production call's caller ID must be ` +
      'a number assigned to you by the operator or verified (POST /v1/phone_numbers/{id}/verification). ' +
      'Test-mode calls may use any number.',
    param,
  );
}

/** Sessions' `CallerIds` port, provided by this context's global module. */
@Injectable()
export class NumbersCallerIds extends CallerIds {
  constructor(private readonly queries: QueryBus) {
    super();
  }

  ensureOwned(tenantId: string, phoneNumber: string, param: string): Promise<void> {
    return ensureCallerIdOwned(this.queries, tenantId, phoneNumber, param);
  }
}
