import { ManualClock } from '../clock';
import { deriveLinkKey, LinkSigner } from './signed-links';

const secret = Buffer.alloc(32, 3);
const start = new Date('2026-03-02T10:00:00.000Z');

describe('LinkSigner', () => {
  it('writes the expiry in its unit, rounded up, and the link is valid until then, expired after', () => {
    const clock = new ManualClock(start);
    const seconds = new LinkSigner(secret, { purpose: 'test/v1', unit: 'seconds' }, clock);
    const link = seconds.sign('rec_1', new Date(start.getTime() + 1500));
    expect(link.expires).toBe(String(start.getTime() / 1000 + 2));
    expect(link.expiresAt).toEqual(new Date(start.getTime() + 2000));
    expect(link.signature).toMatch(/^[A-Za-z0-9_-]{43}$/);
    clock.advance(1999);
    expect(seconds.check('rec_1', link.expires, link.signature)).toBe('valid');
    clock.advance(1);
    expect(seconds.check('rec_1', link.expires, link.signature)).toBe('expired');

    const ms = new LinkSigner(secret, { purpose: 'test/v1', unit: 'milliseconds' }, new ManualClock(start));
    expect(ms.sign('rec_1', new Date(start.getTime() + 1500)).expires).toBe(String(start.getTime() + 1500));
  });

  it('binds the signature to the subject, the expiry, the purpose and the secret; only a genuine link can be expired', () => {
    const clock = new ManualClock(start);
    const signer = new LinkSigner(secret, { purpose: 'test/v1', unit: 'milliseconds' }, clock);
    const { expires, signature } = signer.sign('room_a', new Date(start.getTime() + 60_000));
    expect(signer.check('room_b', expires, signature)).toBe('invalid');
    expect(signer.check('room_a', String(Number(expires) + 1), signature)).toBe('invalid');
    expect(signer.check('room_a', '1', signature)).toBe('invalid');
    const otherPurpose = new LinkSigner(secret, { purpose: 'test/v2', unit: 'milliseconds' }, clock);
    expect(otherPurpose.check('room_a', expires, signature)).toBe('invalid');
    const otherSecret = new LinkSigner(Buffer.alloc(32, 4), { purpose: 'test/v1', unit: 'milliseconds' }, clock);
    expect(otherSecret.check('room_a', expires, signature)).toBe('invalid');
    for (const [e, s] of [
      [undefined, signature],
      [expires, undefined],
      [[expires], signature],
      [`${expires}.0`, signature],
      ['1'.repeat(16), signature],
      [expires, `${signature}=`],
      [expires, signature.slice(1)],
    ])
      expect(signer.check('room_a', e, s)).toBe('invalid');
  });

  it('needs a secret of at least 32 bytes', () => {
    expect(() => deriveLinkKey(Buffer.alloc(31), 'test/v1')).toThrow(RangeError);
    expect(
      () => new LinkSigner(Buffer.alloc(16), { purpose: 'test/v1', unit: 'seconds' }, new ManualClock(start)),
    ).toThrow(RangeError);
  });
});
