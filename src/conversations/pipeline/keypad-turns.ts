/** Keys pressed less than this apart are one keypad turn; `#` ends one at once. */
export const KEYS_GAP_MS = 1200;
/** A keypad turn holds at most this many keys (then it is answered). */
const MAX_KEYS = 32;

/** Keys the caller pressed as one turn: the digits, when the first and the last were pressed (ms from the start). */
export interface KeysTurn {
  digits: string;
  startedAt: number;
  lastAt: number;
}

/**
 * Gathers a phone call's keypad presses into turns: keys less than KEYS_GAP_MS apart, or up to `#`,
 * or MAX_KEYS of them, are one turn, handed to `ended`.
 */
export class KeypadTurns {
  private keys: (KeysTurn & { timer: NodeJS.Timeout | null }) | null = null;

  constructor(
    private readonly now: () => number,
    private readonly ended: (turn: KeysTurn) => void,
  ) {}

  press(digit: string): void {
    const at = this.now();
    const keys = (this.keys ??= { digits: '', startedAt: at, lastAt: at, timer: null });
    keys.digits += digit;
    keys.lastAt = at;
    if (keys.timer) clearTimeout(keys.timer);
    keys.timer = null;
    if (digit === '#' || keys.digits.length >= MAX_KEYS) this.end();
    else keys.timer = setTimeout(() => this.end(), KEYS_GAP_MS);
  }

  /** Forgets the keys pressed so far (a transfer, the end). */
  clear(): void {
    if (this.keys?.timer) clearTimeout(this.keys.timer);
    this.keys = null;
  }

  private end(): void {
    const keys = this.keys;
    this.keys = null;
    if (keys) this.ended({ digits: keys.digits, startedAt: keys.startedAt, lastAt: keys.lastAt });
  }
}
