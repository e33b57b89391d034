/** The numbers context's public face: what other contexts may use. */
export { NumbersModule } from './numbers.module';
export { GetNumberOwner, type NumberOwner } from './application/numbers.queries';
export { ReceiveInboundCall } from './application/numbers.commands';
export { NumberOwnedBy, ensureCallerIdOwned } from './application/caller-id.query';
