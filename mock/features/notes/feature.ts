// Notes and sessions: list with filters, export, detail with include, session notes, regeneration, and the control
// routes that finalize a session (a new note) and edit a note.
import type { EngineApp, EngineContext, EngineDeps, FeatureFactory } from '../../platform/deps.ts';
import { faultScope } from '../../platform/faults.ts';
import { orgOf, pageBody, pageOf, queryOf, type PageQuery } from '../../platform/http.ts';
import { registerControl } from './control.ts';
import { MEDIA_TYPES, exportStream, type ExportFormat } from './export.ts';
import { filterNotes, type NoteFilters } from './filters.ts';
import { DEFAULT_MODEL, REGENERATION_MESSAGE, createRegenerator, isReady, type Regenerator } from './regeneration.ts';
import { collections, EMBEDS } from './rows.ts';
import { loadNotesSeed } from './seed.ts';
import { idempotencyKeyCheck } from './spec-params.ts';
import { patientContext, sessionView, toDetail, toListItem } from './views.ts';

function routes(app: EngineApp, deps: EngineDeps, regen: Regenerator) {
  const { notes, sessions, templates } = collections(deps);

  app.get('/notes', (c) => {
    const q = queryOf<NoteFilters & PageQuery>(c, deps);
    if (q instanceof Response) return q;
    const { rows, total } = pageOf(filterNotes(notes.all(orgOf(c)), q), q);
    return c.json(pageBody(rows.map(toListItem), q, total));
  });

  const exportNotes = (c: EngineContext) => {
    const q = queryOf<{ format: ExportFormat }>(c, deps);
    if (q instanceof Response) return q;
    const ext = q.format === 'ndjson' ? 'ndjson' : q.format;
    return c.body(exportStream(notes, orgOf(c), q.format), 200, {
      'Content-Type': `${MEDIA_TYPES[q.format]}; charset=utf-8`,
      'Content-Disposition': `attachment; filename="notes.${ext}"`,
    });
  };

  // GET /notes/export shares the route of /notes/:noteId: a static segment beside a parameter is the one route shape
  // Hono's RegExpRouter cannot take, and with it the whole app fell back to the slower TrieRouter.
  app.get('/notes/:noteId', (c) => {
    if (c.req.param('noteId') === 'export') return exportNotes(c);
    const q = queryOf<{ include: string }>(c, deps);
    if (q instanceof Response) return q;
    const note = notes.get(orgOf(c), c.req.param('noteId'));
    if (!note) return deps.responses.error(c, 404, 'Note not found');
    const include = new Set(q.include.split(',').filter((v) => EMBEDS.includes(v)));
    return c.json({ data: toDetail(deps, orgOf(c), note, include) });
  });

  app.get('/sessions/:sessionId/notes', (c) => {
    const org = orgOf(c);
    const session = sessions.get(org, c.req.param('sessionId'));
    if (!session) return deps.responses.error(c, 404, 'Session not found');
    // The session and patient sit beside the notes, so each note carries neither again.
    const list = notes.all(org).filter((n) => n.session_id === session.id);
    return c.json({
      data: {
        session: sessionView(session),
        patient: patientContext(deps, org, session.patient_id),
        notes: list.map((n) => toDetail(deps, org, n, new Set())),
      },
    });
  });

  app.post('/sessions/:sessionId/notes/regenerate', async (c) => {
    const org = orgOf(c);
    const session = sessions.get(org, c.req.param('sessionId'));
    if (!session) return deps.responses.error(c, 404, 'Session not found');
    const key = c.req.header('idempotency-key');
    const keyProblem = key === undefined ? undefined : idempotencyKeyCheck(key);
    if (keyProblem) return deps.responses.validation(c, { 'Idempotency-Key': keyProblem });
    const read = await deps.responses.readJson(c, 'regenerateSessionNote', { optional: true });
    if (read instanceof Response) return read;
    const body = (read.body ?? {}) as { template_id?: string; model?: string };
    if (body.template_id !== undefined && !templates.get(org, body.template_id))
      return deps.responses.validation(c, { template_id: 'is not a template of the organization' });

    const accepted = () => c.json({ data: { session_id: session.id, status: 'queued' as const }, message: REGENERATION_MESSAGE }, 202);
    // A repeat of an accepted request gets the same answer and no second regeneration.
    if (key !== undefined && regen.seenKey(org, session.id, key)) return accepted();
    if (!isReady(deps, org, session)) return deps.responses.error(c, 409, 'Session is not ready for regeneration');
    if (deps.faults.take('regeneration-unavailable', faultScope(c)))
      return deps.responses.error(c, 503, 'Regeneration could not be queued');
    if (key !== undefined) regen.rememberKey(org, session.id, key);
    regen.queue(org, session, body.template_id ?? session.template_id, body.model ?? DEFAULT_MODEL);
    return accepted();
  });
}

export const notesFeature: FeatureFactory = (deps) => {
  // One regenerator per engine (tests build many engines in one process).
  const regen = createRegenerator(deps);
  return {
    name: 'notes',
    routes: (app) => routes(app, deps, regen),
    control: (app) => registerControl(app, deps),
    seed: (seed) => loadNotesSeed(seed, deps),
    resume: () => regen.resume(),
  };
};
