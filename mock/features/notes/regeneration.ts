// Note regeneration: queued on request, applied after a simulated delay, deduplicated by Idempotency-Key.
import type { EngineDeps } from '../../platform/deps.ts';
import { writeNote } from './content.ts';
import { ENGINE_ORG, TRANSCRIPT_READY, collections, type NoteRow, type RegenerationEntry, type SessionRow } from './rows.ts';

/** Simulated time per tier: the source says "typically under a minute". */
export const REGENERATION_MS: Record<string, number> = { fast: 10_000, balanced: 20_000, detailed: 40_000 };
/** The standard tier (the spec's x-assumption on `model`). */
export const DEFAULT_MODEL = 'balanced';
/** The source promises at least an hour; the mock remembers keys for a day. */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;

export const REGENERATION_MESSAGE = 'Note regeneration queued.';

/** The note a regeneration replaces: the session's latest. */
export function latestNote(deps: EngineDeps, org: string, sessionId: string): NoteRow | undefined {
  return collections(deps)
    .notes.all(org)
    .filter((n) => n.session_id === sessionId)
    .at(-1);
}

export const isReady = (deps: EngineDeps, org: string, s: SessionRow) =>
  s.transcript.status === TRANSCRIPT_READY && latestNote(deps, org, s.id) !== undefined;

export function createRegenerator(deps: EngineDeps) {
  const c = collections(deps);

  /** Was this key accepted for this session within the window? */
  function seenKey(org: string, sessionId: string, key: string): boolean {
    const seen = c.idempotency.get(org, `${sessionId}:${key}`);
    return !!seen && deps.clock.now().getTime() - Date.parse(seen.created_at) < IDEMPOTENCY_WINDOW_MS;
  }

  /** Records an accepted key (only accepted requests are deduplicated; a 409 or 503 may be retried). */
  function rememberKey(org: string, sessionId: string, key: string) {
    const row = { id: `${sessionId}:${key}`, session_id: sessionId, created_at: deps.clock.stamp() };
    if (c.idempotency.get(org, row.id)) c.idempotency.put(org, row);
    else c.idempotency.insert(org, row);
  }

  function queue(org: string, session: SessionRow, templateId: string, model: string) {
    const run = session.regen_runs + 1;
    c.sessions.put(org, { ...session, regen_runs: run });
    const entry: RegenerationEntry = { id: `${session.id}#${run}`, org, session_id: session.id, run, template_id: templateId, model };
    c.regenerations.insert(ENGINE_ORG, entry);
    schedule(entry);
  }

  function schedule(entry: RegenerationEntry) {
    // regeneration-slow: "typical duration is under a minute" is not a bound; this server's take 90 s.
    const ms = deps.readings.has('regeneration-slow') ? 90_000 : (REGENERATION_MS[entry.model] ?? REGENERATION_MS[DEFAULT_MODEL]!);
    deps.clock.after(ms, () => {
      try {
        apply(entry);
      } catch (err) {
        console.error(`[notes] regeneration of session ${entry.session_id} failed:`, err);
      }
    });
  }

  function apply(entry: RegenerationEntry) {
    c.regenerations.delete(ENGINE_ORG, entry.id);
    const { org } = entry;
    const session = c.sessions.get(org, entry.session_id);
    const note = session && latestNote(deps, org, session.id);
    // Session or note gone, or a newer run already applied: nothing to do.
    if (!session || !note || note.regenerated_run > entry.run) return;
    const template = c.templates.get(org, entry.template_id) ?? c.templates.get(org, note.template_id ?? '');
    if (!template) return;
    const updated: NoteRow = {
      ...note,
      template_id: template.id,
      template_name: template.name,
      note_type: template.note_type,
      specialty: template.specialty,
      content: writeNote({ template, transcript: session.transcript, model: entry.model, version: entry.run }),
      updated_at: laterThan(deps.clock.now(), note.updated_at),
      regenerated_run: entry.run,
    };
    c.notes.put(org, updated);
    deps.events.note(
      org,
      'NOTE_REGENERATED',
      { id: note.id, session_id: session.id, patient_id: note.patient_id, template_id: template.id },
      'api',
    );
  }

  /** After a restart: every regeneration still waiting is scheduled again with its full delay. */
  function resume() {
    for (const entry of c.regenerations.all(ENGINE_ORG)) schedule(entry);
  }

  return { seenKey, rememberKey, queue, resume };
}

/** An ISO time strictly after `previous`, so a bump is visible even within one millisecond. */
export function laterThan(now: Date, previous: string): string {
  const prev = Date.parse(previous);
  return new Date(Number.isNaN(prev) ? now.getTime() : Math.max(now.getTime(), prev + 1)).toISOString();
}

export type Regenerator = ReturnType<typeof createRegenerator>;
