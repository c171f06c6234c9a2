/**
 * D6: the limits of a JSON document the service accepts, the same for a request body and for a
 * row of the bulk import (X13, docs/bulk-import.md).
 */

/** At most 1 MiB (a larger request body is refused with 413 while it is read). */
export const BODY_LIMIT_BYTES = 1_048_576;

/**
 * How deep a JSON document may nest (objects and arrays). A lead or partner body is at most 3 levels
 * deep; a body nested ~1,300 levels overflowed the stack of the object mapper (a 500), even in a
 * field that is otherwise ignored. Deeper is INVALID_REQUEST, like a body that is not JSON.
 */
export const MAX_NESTING = 32;

/** The nesting depth of a parsed JSON value, without recursion (so a deep value cannot overflow here). */
export function nestingDepth(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (depth > deepest) deepest = depth;
    if (deepest > MAX_NESTING) return deepest;
    for (const child of Object.values(current as object)) {
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
    }
  }
  return deepest;
}
