import { timeOrderedId } from './time-ordered-id';

describe('timeOrderedId', () => {
  it('is a version 7 UUID whose text order follows the time, and the call order within one millisecond', () => {
    const at = new Date('2027-01-15T10:00:00.000Z');
    const ids = Array.from({ length: 5000 }, () => timeOrderedId(at));
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
    const later = timeOrderedId(new Date('2027-01-15T10:00:05.000Z'));
    expect(later > ids[ids.length - 1]).toBe(true);
  });

  it('carries the time in its first 48 bits', () => {
    const at = new Date('2030-06-01T00:00:00.000Z');
    const id = timeOrderedId(at);
    expect(parseInt(id.replace(/-/g, '').slice(0, 12), 16)).toBeGreaterThanOrEqual(at.getTime());
  });
});
