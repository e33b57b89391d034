/** The rooms context's public face: what other contexts may use. */
export { RoomsModule } from './rooms.module';
