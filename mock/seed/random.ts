// Deterministic building blocks of the seed: a seeded PRNG and the ids it makes (UUIDs, 19-digit patient ids,
// Luhn-valid type-I NPIs). Separate from generate.ts so the clinical part of the seed can use them without a cycle.
import { mulberry32 } from '../../spec/runtime/prng.ts';

export type Rng = () => number;

/** The seed's stream (mulberry32: small, fast, deterministic). */
export const createRng = (seed = 20261102): Rng => mulberry32(seed);

export const pick = <T>(rng: Rng, xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)]!;
export const digits = (rng: Rng, n: number) => Array.from({ length: n }, () => Math.floor(rng() * 10)).join('');
export const hex = (rng: Rng, n: number) => Array.from({ length: n }, () => Math.floor(rng() * 16).toString(16)).join('');

export function uuid(rng: Rng): string {
  const h = hex(rng, 32).split('');
  h[12] = '4';
  h[16] = '89ab'[Math.floor(rng() * 4)]!;
  const s = h.join('');
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
}

/** A 19-digit patient id. */
export const patientId = (rng: Rng) => `${1 + Math.floor(rng() * 9)}${digits(rng, 18)}`;

/** Luhn check over the NPI with the 80840 prefix (the NPI standard). */
export function npiCheckDigit(nine: string): number {
  const s = `80840${nine}`;
  let sum = 0;
  for (let i = 0; i < s.length; i++) {
    let d = Number(s[s.length - 1 - i]);
    if (i % 2 === 0) (d *= 2), d > 9 && (d -= 9);
    sum += d;
  }
  return (10 - (sum % 10)) % 10;
}
export function isValidNpi(npi: string): boolean {
  return /^\d{10}$/.test(npi) && npiCheckDigit(npi.slice(0, 9)) === Number(npi[9]);
}
export function npi(rng: Rng): string {
  const nine = `1${digits(rng, 8)}`; // type-I NPIs begin with 1
  return `${nine}${npiCheckDigit(nine)}`;
}
