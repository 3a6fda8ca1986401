import { z } from 'zod';

/**
 * An order number as the model may type it: case and surrounding spaces are forgiven
 * (`" a1001 "` → `A1001`), anything else is refused with a message that shows the shape.
 */
export const orderIdSchema = z
  .string({ error: 'orderId must be a string such as "A1001".' })
  .trim()
  .toUpperCase()
  .regex(
    /^[A-Z]\d{4,8}$/,
    'orderId looks like A1001: one letter followed by digits, nothing else. Use the order number the user gave; if they gave none, ask them for it instead of guessing.',
  );
