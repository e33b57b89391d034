/** The do-not-call context's public face: what other contexts may use. */
export { DncModule } from './dnc.module';
export { ChangeDnc } from './application/dnc.commands';
export { ListedNumbers } from './application/dnc.queries';
