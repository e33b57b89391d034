/**
 * The port `POST /v1/calls` asks before it accepts a production call's `from` (the caller ID the
 * callee sees): the number must be the tenant's own, active (assigned by the operator or verified),
 * so that no tenant calls as another's number. Sessions declares it; the numbers context provides
 * it from its global module (as credits does `BillingHolds`), since numbers imports sessions and
 * sessions must not import numbers. Test-mode calls do not ask (decision 178).
 */
export abstract class CallerIds {
  /**
   * Resolves when the tenant may place production calls from `phoneNumber` (E.164); else throws the
   * `422 from_number_not_owned` error naming `param`. The answer is the same whether the number is
   * unknown, another tenant's or the tenant's own but pending verification.
   */
  abstract ensureOwned(tenantId: string, phoneNumber: string, param: string): Promise<void>;
}
