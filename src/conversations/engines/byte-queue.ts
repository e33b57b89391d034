/**
 * Bytes read from a stream (a helper's stdout, an HTTP body), kept as the chunks they came in until
 * they are taken: adding a chunk copies nothing, and each byte is copied once, when it is taken, into
 * the caller's own buffer. Concatenating everything so far with each chunk instead copies the whole
 * of it again per chunk: quadratic in the answer's length (a long answer made by flite held the event
 * loop for far too long). `copied` counts the bytes copied out, so that
 * tests can see the work is linear.
 */
export class ByteQueue {
  private chunks: Buffer[] = [];
  /** The first chunk not wholly taken (those before are dropped in bulk, not one shift each). */
  private first = 0;
  /** Bytes of `chunks[first]` already taken. */
  private head = 0;
  private size = 0;
  /** Bytes copied out so far (taken or peeked). */
  copied = 0;

  get length(): number {
    return this.size;
  }

  push(chunk: Buffer): void {
    if (chunk.length === 0) return;
    this.chunks.push(chunk);
    this.size += chunk.length;
  }

  /** The first `n` bytes (n ≤ length), left in the queue: a copy of n bytes (meant for headers). */
  peek(n: number): Buffer {
    const out = Buffer.alloc(n);
    this.copyOut(out, false);
    return out;
  }

  /** Takes the first `into.length` bytes (at most `length`) into `into`. */
  take(into: Uint8Array): void {
    this.copyOut(into, true);
  }

  /** Drops the first `n` bytes (n ≤ length) without copying them. */
  skip(n: number): void {
    let left = Math.min(n, this.size);
    this.size -= left;
    while (left > 0) {
      const chunk = this.chunks[this.first];
      if (!chunk) break;
      const available = chunk.length - this.head;
      if (left < available) {
        this.head += left;
        break;
      }
      left -= available;
      this.first++;
      this.head = 0;
    }
    if (this.first === this.chunks.length) {
      this.chunks = [];
      this.first = 0;
    } else if (this.first >= 64 && this.first * 2 >= this.chunks.length) {
      this.chunks = this.chunks.slice(this.first);
      this.first = 0;
    }
  }

  /** Everything, as one buffer (one copy), emptying the queue. */
  takeAll(): Buffer {
    const out = Buffer.alloc(this.size);
    this.take(out);
    return out;
  }

  private copyOut(into: Uint8Array, consume: boolean): void {
    const n = Math.min(into.length, this.size);
    let written = 0;
    let index = this.first;
    let offset = this.head;
    while (written < n) {
      const chunk = this.chunks[index];
      if (!chunk) break;
      const count = Math.min(n - written, chunk.length - offset);
      into.set(chunk.subarray(offset, offset + count), written);
      written += count;
      offset += count;
      if (offset === chunk.length) {
        index++;
        offset = 0;
      }
    }
    this.copied += written;
    if (consume) this.skip(n);
  }
}
