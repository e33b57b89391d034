import type { Contact } from './contact';

/** Contacts per chunk: a contact's update copies its chunk and the list of chunks, not every contact. */
const CHUNK = 64;

/**
 * A campaign's contacts in the order they were added: immutable, as every state the decider folds
 * is (a cached state is shared), but cheap to update. A copied Map cost O(contacts) per contact event,
 * so folding a campaign's stream cost O(contacts²), for every read of the stream (the figures:
 * docs/benchmarks.md). Here `with` copies one chunk of 64 and the list
 * of chunks; positions never change once a contact is added.
 */
export class ContactBook {
  static readonly EMPTY = new ContactBook(new Map(), []);

  private constructor(
    private readonly index: ReadonlyMap<string, number>,
    private readonly chunks: readonly (readonly Contact[])[],
  ) {}

  get size(): number {
    return this.index.size;
  }

  get(contactId: string): Contact | undefined {
    const at = this.index.get(contactId);
    return at === undefined ? undefined : this.chunks[Math.floor(at / CHUNK)]?.[at % CHUNK];
  }

  has(contactId: string): boolean {
    return this.index.has(contactId);
  }

  /** The contacts added at the end (a contact whose id is already here replaces it in place). */
  adding(contacts: readonly Contact[]): ContactBook {
    if (contacts.length === 0) return this;
    const index = new Map(this.index);
    const chunks = this.chunks.map((c) => [...c]);
    for (const contact of contacts) {
      const known = index.get(contact.contact_id);
      const at = known ?? index.size;
      if (known === undefined) {
        index.set(contact.contact_id, at);
        if (at % CHUNK === 0) chunks.push([]);
      }
      const chunk = chunks[Math.floor(at / CHUNK)];
      if (chunk) chunk[at % CHUNK] = contact;
    }
    return new ContactBook(index, chunks);
  }

  /** The same book with this contact (one already in it) in place of its previous state. */
  with(contact: Contact): ContactBook {
    const at = this.index.get(contact.contact_id);
    if (at === undefined) return this.adding([contact]);
    const n = Math.floor(at / CHUNK);
    const chunk = [...(this.chunks[n] ?? [])];
    chunk[at % CHUNK] = contact;
    const chunks = [...this.chunks];
    chunks[n] = chunk;
    return new ContactBook(this.index, chunks);
  }

  *values(): IterableIterator<Contact> {
    for (const chunk of this.chunks) yield* chunk;
  }

  [Symbol.iterator](): IterableIterator<Contact> {
    return this.values();
  }
}
