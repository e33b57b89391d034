/**
 * Cuts a model's streamed text into pieces to synthesise as soon as each is whole: sentences (ended
 * by . ! ? or a line break, followed by a space), and, in a long sentence, clauses at a comma, colon
 * or semicolon once MIN_CLAUSE characters are waiting, so the first audio never waits for a long
 * sentence's end.
 */
const MIN_CLAUSE = 60;

export class SentenceSplitter {
  private pending = '';

  /** Adds streamed text; returns the pieces it completed. */
  push(text: string): string[] {
    this.pending += text;
    const pieces: string[] = [];
    for (;;) {
      const end = this.boundary();
      if (end < 0) break;
      const piece = this.pending.slice(0, end).trim();
      this.pending = this.pending.slice(end);
      if (piece) pieces.push(piece);
    }
    return pieces;
  }

  /** What is left at the end of the stream. */
  flush(): string | null {
    const rest = this.pending.trim();
    this.pending = '';
    return rest || null;
  }

  private boundary(): number {
    const sentence = /[.!?]+["')\]]*\s|\n/.exec(this.pending);
    if (sentence) return sentence.index + sentence[0].length;
    if (this.pending.length < MIN_CLAUSE) return -1;
    const clause = /[,;:]\s/g;
    let last = -1;
    for (let m = clause.exec(this.pending); m; m = clause.exec(this.pending)) {
      if (m.index >= MIN_CLAUSE / 2) {
        last = m.index + m[0].length;
        break;
      }
    }
    return last;
  }
}
