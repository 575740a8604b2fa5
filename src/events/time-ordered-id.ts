import { randomBytes } from 'node:crypto';

let lastMs = -1;
let sequence = 0;

/**
 * A UUID version 7 for `at`: its first 48 bits are the time in milliseconds and, within one millisecond, a
 * sequence makes ids of this process strictly increasing, so ids sort like the records they name (and index well).
 */
export function timeOrderedId(at: Date): string {
  let ms = at.getTime();
  if (ms > lastMs) {
    lastMs = ms;
    // A random start in the lower half leaves room to count up within the millisecond.
    sequence = randomBytes(2).readUInt16BE(0) & 0x7ff;
  } else {
    ms = lastMs;
    sequence++;
    if (sequence > 0xfff) {
      lastMs = ms = lastMs + 1;
      sequence = 0;
    }
  }
  const bytes = randomBytes(16);
  bytes.writeUIntBE(ms, 0, 6);
  bytes[6] = 0x70 | ((sequence >> 8) & 0x0f);
  bytes[7] = sequence & 0xff;
  bytes[8] = 0x80 | (bytes[8] & 0x3f);
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
