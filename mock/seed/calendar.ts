// The clinical seed's calendar: fixed dates around the core seed's base day, so seeded data never depends on today.
export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;
/** The core seed's base day (2026-11-02). */
export const SEED_DAY = Date.UTC(2026, 10, 2);
export const iso = (ms: number) => new Date(ms).toISOString();

export type Row = { id: string; organization_id: string };
export type PatientRow = Row & { name?: string | null };
