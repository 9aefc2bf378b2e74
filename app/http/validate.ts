import type { z } from 'zod';
import { invalidInput } from '../errors.js';

/** Parse with a zod schema or throw a 400 that lists every problem with its field. */
export function validate<S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const problems = result.error.issues.map((i) => {
    const field = i.path.length ? i.path.map(String).join('.') : what;
    if (i.code === 'invalid_type' && i.path.length === 0) return `${what} must be a JSON ${i.expected}`;
    return `${field}: ${i.message}`;
  });
  throw invalidInput(what, problems);
}
