import { parsePhoneNumberFromString } from 'libphonenumber-js/max';

/** E.164 form of a valid number written in international format (leading +), else null. */
export function normalisePhoneNumber(input: string): string | null {
  const text = input.trim();
  if (!/^\+[0-9 ()\-.]{6,24}$/.test(text)) return null;
  const parsed = parsePhoneNumberFromString(text);
  return parsed && parsed.isValid() ? parsed.number : null;
}
