import { MAX_SYNTHESIS_PIECE } from '../engines/synthesis-pieces';

/**
 * Cuts a model's streamed text into pieces to synthesise as soon as each is whole: sentences (ended
 * by . ! ? or a line break, followed by a space), and, in a long sentence, clauses at a comma, colon
 * or semicolon once MIN_CLAUSE characters are waiting, so the first audio never waits for a long
 * sentence's end. The answer's first clause goes at once, however short ("Sure, …": decision 195):
 * the caller hears the agent while the rest is written. Text that has neither is cut at a space once
 * MAX_SYNTHESIS_PIECE characters wait.
 */
const MIN_CLAUSE = 60;

export class SentenceSplitter {
  private pending = '';
  /** No piece was cut yet: the first clause ends the first piece at any length. */
  private first = true;

  /** Adds streamed text; returns the pieces it completed. */
  push(text: string): string[] {
    this.pending += text;
    const pieces: string[] = [];
    for (;;) {
      const end = this.boundary();
      if (end < 0) break;
      const piece = this.pending.slice(0, end).trim();
      this.pending = this.pending.slice(end);
      if (piece) {
        pieces.push(piece);
        this.first = false;
      }
    }
    return pieces;
  }

  /** What is left at the end of the stream. */
  flush(): string | null {
    const rest = this.pending.trim();
    this.pending = '';
    return rest || null;
  }

  /**
   * The end of the next piece, looked for in the first MAX_SYNTHESIS_PIECE + 1 characters only: text
   * with no sentence or clause end is cut there (at its last space, if it has one), so each piece
   * costs a bounded search and the whole answer is cut in linear time.
   */
  private boundary(): number {
    const window = this.pending.slice(0, MAX_SYNTHESIS_PIECE + 1);
    const sentence = /[.!?]+["')\]]*\s|\n/.exec(window);
    const clause = /[,;:]\s/g;
    if (this.first) {
      // Before the first sentence's end: its first clause, if it has a word before it.
      const early = clause.exec(sentence ? window.slice(0, sentence.index) : window);
      if (early && early.index > 0) return early.index + early[0].length;
      clause.lastIndex = 0;
    }
    if (sentence) return sentence.index + sentence[0].length;
    if (window.length < MIN_CLAUSE) return -1;
    for (let m = clause.exec(window); m; m = clause.exec(window)) {
      if (m.index >= MIN_CLAUSE / 2) return m.index + m[0].length;
    }
    if (window.length <= MAX_SYNTHESIS_PIECE) return -1;
    const space = window.lastIndexOf(' ', MAX_SYNTHESIS_PIECE);
    if (space > 0) return space + 1;
    // One word longer than a piece: not cut inside a surrogate pair.
    const code = window.charCodeAt(MAX_SYNTHESIS_PIECE - 1);
    return code >= 0xd800 && code <= 0xdbff ? MAX_SYNTHESIS_PIECE - 1 : MAX_SYNTHESIS_PIECE;
  }
}
