/*
 * Money is stored as integer minor units (cents, fen): sums stay exact, which floats do not
 * (0.1 + 0.2 !== 0.3). Every currency the product holds (CNY, USD) has two decimals.
 */

/** Minor units per major unit of every currency the product holds. */
export const minorUnitsPerMajor = 100;

/** `45.5` → `4550`. The amount must have at most two decimals (the tool's schema checks that). */
export function toMinorUnits(amount: number): number {
  return Math.round(amount * minorUnitsPerMajor);
}

/** `4550` → `45.5`: the number a tool result shows. */
export function fromMinorUnits(minor: number): number {
  return minor / minorUnitsPerMajor;
}

/** True when `amount` has at most two decimals (`45.5`, `80`, `0.29`; not `0.001`). */
export function hasAtMostTwoDecimals(amount: number): boolean {
  return Number.isFinite(amount) && Math.abs(amount * minorUnitsPerMajor - toMinorUnits(amount)) < 1e-6;
}

/** `4550, 'USD'` → `45.50 USD`: how replies and cards write an amount. */
export function formatMoney(minor: number, currency: string): string {
  return `${(minor / minorUnitsPerMajor).toFixed(2)} ${currency}`;
}
