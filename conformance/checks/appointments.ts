// Appointment date filters (the kit's names date, start_date, end_date: an assumption, so --profile all): three
// appointments of the run's own patient on three consecutive far-future days, then each filter must keep exactly
// the right ones (inclusive bounds, by the UTC date of start_at) and nothing outside its range.
import type { CheckDef } from '../model.ts';
import { createAppointment, got, listOf, objOf } from './util.ts';

const day = (d: Date) => d.toISOString().slice(0, 10);

export const appointmentChecks: CheckDef[] = [
  {
    name: 'appointment_date_filters',
    area: 'appointments',
    rule: 'APT-027',
    provenance: 'assumed',
    covers: ['APT-015'],
    needs: { write: true },
    async run(ctx) {
      const p = await ctx.fixtures.patient();
      // A random day between 2090 and 2099, so runs (and other data) do not share it.
      const base = Date.UTC(2090, 0, 1) + Math.floor(Math.random() * 3000) * 86_400_000;
      const days = [0, 1, 2].map((i) => new Date(base + i * 86_400_000 + 10 * 3_600_000));
      const ids: string[] = [];
      for (const d of days) {
        const a = await createAppointment(ctx, String(p.id), { start_at: d.toISOString() });
        if (!ctx.expect(a.response.status === 201, { expected: '201 for an appointment on a far-future day', actual: got(a), exchange: a })) return;
        ids.push(String(objOf(a).id));
      }
      const [d1, d2, d3] = days.map(day) as [string, string, string];
      const [a1, a2, a3] = ids as [string, string, string];
      // [query, this run's appointments that must be listed, the ones that must not, the range every item keeps to]
      const cases: Array<[Record<string, string>, string[], string[], (date: string) => boolean]> = [
        [{ date: d2 }, [a2], [a1, a3], (x) => x === d2],
        [{ start_date: d2, end_date: d3 }, [a2, a3], [a1], (x) => x >= d2 && x <= d3],
        [{ start_date: d1, end_date: d2 }, [a1, a2], [a3], (x) => x >= d1 && x <= d2],
        [{ start_date: d3 }, [a3], [a1, a2], (x) => x >= d3],
        // end_date alone reaches every older appointment: only what must be absent, and the range, are known.
        [{ end_date: d1 }, [], [a2, a3], (x) => x <= d1],
      ];
      for (const [query, want, never, inRange] of cases) {
        const ex = await ctx.send({ method: 'GET', path: '/appointments', key: ctx.keys.main, query: { ...query, limit: 100 } });
        const items = listOf(ex);
        const ours = items.filter((a) => ids.includes(String(a.id))).map((a) => String(a.id)).sort();
        const outside = items.filter((a) => !inRange(String(a.start_at ?? '').slice(0, 10)));
        const q = new URLSearchParams(query).toString();
        const ok = want.every((id) => ours.includes(id)) && !never.some((id) => ours.includes(id));
        ctx.expect(ex.response.status === 200 && ok && !outside.length, {
          expected: `200 listing [${want.join(', ')}] and not [${never.join(', ')}] of this run's appointments for ${q}, and nothing outside the range`,
          actual: `${ex.response.status}: this run's [${ours.join(', ')}]${outside.length ? `; outside: ${outside.map((a) => String(a.start_at)).join(', ')}` : ''}`,
          exchange: ex,
        });
      }
      const bad = await ctx.send({ method: 'GET', path: '/appointments', key: ctx.keys.main, query: { date: 'not-a-date' } });
      ctx.expect(bad.response.status === 400, { expected: '400 for date=not-a-date', actual: got(bad), exchange: bad });
    },
  },
];
