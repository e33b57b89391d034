import type { Contact } from './contact';
import { ContactBook } from './contact-book';

const contact = (n: number, status: Contact['status'] = 'pending'): Contact => ({
  contact_id: `con_${n}`,
  phone_number: `+1212555${String(n).padStart(4, '0')}`,
  e164: `+1212555${String(n).padStart(4, '0')}`,
  email: null,
  first_name: null,
  last_name: null,
  timezone: null,
  zones: ['America/New_York'],
  campaignId: 'cmp_1',
  status,
  sessionId: null,
  dispatchedAt: null,
});

describe('ContactBook', () => {
  const many = Array.from({ length: 200 }, (_, i) => contact(i));

  it('keeps contacts in the order they were added, across chunks and additions', () => {
    const book = ContactBook.EMPTY.adding(many.slice(0, 70)).adding(many.slice(70));
    expect(book.size).toBe(200);
    expect([...book.values()].map((c) => c.contact_id)).toEqual(many.map((c) => c.contact_id));
    expect([...book].length).toBe(200);
    expect(book.get('con_130')).toBe(many[130]);
    expect(book.has('con_199')).toBe(true);
    expect(book.get('con_200')).toBeUndefined();
    expect(ContactBook.EMPTY.size).toBe(0);
  });

  it('an update is a new book: the old one is unchanged, the others are shared', () => {
    const book = ContactBook.EMPTY.adding(many);
    const dispatched = { ...many[100]!, status: 'dispatched' as const };
    const next = book.with(dispatched);
    expect(next.get('con_100')).toBe(dispatched);
    expect(book.get('con_100')?.status).toBe('pending');
    expect(next.get('con_5')).toBe(book.get('con_5'));
    expect([...next.values()].map((c) => c.contact_id)).toEqual(many.map((c) => c.contact_id));
    expect(next.size).toBe(200);
  });

  it('a contact added again replaces the one with its id, in place', () => {
    const book = ContactBook.EMPTY.adding([contact(1), contact(2), contact(1, 'skipped')]);
    expect(book.size).toBe(2);
    expect([...book.values()].map((c) => [c.contact_id, c.status])).toEqual([
      ['con_1', 'skipped'],
      ['con_2', 'pending'],
    ]);
    expect(ContactBook.EMPTY.with(contact(3)).get('con_3')?.contact_id).toBe('con_3');
  });
});
