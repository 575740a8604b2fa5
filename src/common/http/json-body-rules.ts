import { isStorableText } from './validators';

/** What every admin request body must be, whatever the route (contract "Hardening rules"). */
export const MAX_BODY_BYTES = 1024 * 1024;
export const MAX_JSON_DEPTH = 32;

/**
 * Names that reach object prototypes in JavaScript. A body carrying them is refused outright rather than
 * dropped: silently losing a merchant's metadata key is as bad as polluting a prototype.
 */
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * True when the JSON text nests objects and arrays deeper than `max`. A linear scan of the text, run before
 * JSON.parse, so a body of a million brackets costs one pass and never a deep recursion anywhere after it.
 */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: the next character is escaped
      else if (c === 0x22) inString = false;
      continue;
    }
    if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

/** What is wrong with a body, and the field at fault when there is one. */
export interface BodyProblem {
  message: string;
  field?: string;
}

/**
 * The first problem of a parsed body, as a message naming the field, or null. Checked once for every route,
 * so a DTO that forgets a text rule still never hands PostgreSQL a NUL or a lone surrogate.
 */
export function jsonBodyProblem(value: unknown, path = ''): BodyProblem | null {
  const at = path === '' ? {} : { field: path };
  if (typeof value === 'string') {
    return isStorableText(value) ? null : { message: `${path || 'body'} must be valid Unicode text without the NUL character (\\u0000)`, ...at };
  }
  if (value === null || typeof value !== 'object') return null;
  const entries: [string, unknown][] = Array.isArray(value) ? value.map((v, i) => [String(i), v]) : Object.entries(value);
  for (const [key, child] of entries) {
    // Nest's own notation (`lines.0.product`), so these messages read like the DTO validators'.
    const childPath = path ? `${path}.${key}` : key;
    if (!Array.isArray(value)) {
      if (FORBIDDEN_KEYS.has(key)) {
        return path ? { message: `${path} must not have the key ${key}`, field: path } : { message: `property ${key} should not exist`, field: key };
      }
      if (!isStorableText(key)) return { message: `${path || 'body'} must hold valid Unicode text without the NUL character (\\u0000) in its keys`, ...at };
    }
    const problem = jsonBodyProblem(child, childPath);
    if (problem) return problem;
  }
  return null;
}
