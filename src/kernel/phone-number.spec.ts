/** E.164 normalisation of phone numbers given in international format. */
import { normalisePhoneNumber } from './phone-number';

describe('normalisePhoneNumber', () => {
  it.each([
    ['+14155550100', '+14155550100'],
    ['+14155550109', '+14155550109'],
    ['+1 415 555 0100', '+14155550100'],
    ['+1-415-555-0100', '+14155550100'],
    ['+1 (415) 555-0100', '+14155550100'],
    ['+1.415.555.0100', '+14155550100'],
    ['  +14155550100  ', '+14155550100'],
    ['+44 20 7183 8750', '+442071838750'],
    ['+49 30 901820', '+4930901820'],
  ])('%j → %s', (input, expected) => {
    expect(normalisePhoneNumber(input)).toBe(expected);
  });

  it.each([
    ['no leading +', '4155550100'],
    ['00 prefix instead of +', '0014155550100'],
    ['too short', '+1415555'],
    ['letters', 'abc'],
    ['a letter O for a zero', '+1415555010O'],
    ['empty', ''],
    ['only +', '+'],
    ['far too long', '+1415555010012345678901234'],
    ['a non-existent country code', '+999123456789'],
    ['a US number with an invalid area code', '+10005550100'],
    ['an extension', '+14155550100 ext. 12'],
    ['two numbers', '+14155550100,+14155550101'],
  ])('%s (%j) → null', (_, input) => {
    expect(normalisePhoneNumber(input)).toBeNull();
  });

  it('answers the same for a text seen before, also after more texts than it remembers', () => {
    const valid = (i: number) => `+1415555${String(i % 10000).padStart(4, '0')}`;
    expect(normalisePhoneNumber('+1 415 555 0100')).toBe('+14155550100');
    for (let i = 0; i < 9000; i++) normalisePhoneNumber(i % 2 === 0 ? valid(i) : `+999${i}0000`);
    expect(normalisePhoneNumber('+1 415 555 0100')).toBe('+14155550100');
    expect(normalisePhoneNumber('+10005550100')).toBeNull();
    expect(normalisePhoneNumber('+10005550100')).toBeNull();
    expect(normalisePhoneNumber(`  ${'+1 415 555 0100'.padEnd(45)}`)).toBe('+14155550100');
  });
});
