// Control routes (under /__mock, no key): list sessions with their readiness (the API has no session list, and
// tools need a ready and a not-ready session), finalize a session, which writes its note (NOTE_CREATED), and edit a
// note (NOTE_UPDATED), as the web application would. Ids alone name the organization.
import type { Context, Hono } from 'hono';
import type { EngineDeps, FieldErrors } from '../../platform/deps.ts';
import { writeNote } from './content.ts';
import { isReady, laterThan, latestNote } from './regeneration.ts';
import { EDITABLE, ENGINE_ORG, TRANSCRIPT_READY, collections, noteRow, type NoteRow } from './rows.ts';
import { toDetail, toExport } from './views.ts';

const MAX_CONTROL_BODY = 1024 * 1024;

/** A JSON object body, or the 4xx Response. `optional`: an empty body is `{}`. */
async function readObject(c: Context, optional: boolean): Promise<Record<string, unknown> | Response> {
  if (Number(c.req.header('content-length') ?? 0) > MAX_CONTROL_BODY) return c.json({ error: 'Request body too large' }, 413);
  const text = await c.req.text();
  if (text.length > MAX_CONTROL_BODY) return c.json({ error: 'Request body too large' }, 413);
  if (text.trim() === '') return optional ? {} : c.json({ error: 'Validation failed', details: { body: 'is required' } }, 400);
  if (!/^application\/json\s*(;|$)/i.test(c.req.header('content-type') ?? ''))
    return c.json({ error: 'Unsupported Content-Type: expected application/json' }, 415);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return c.json({ error: 'Validation failed', details: { body: 'malformed JSON' } }, 400);
  }
  if (!body || typeof body !== 'object' || Array.isArray(body))
    return c.json({ error: 'Validation failed', details: { body: 'must be a JSON object' } }, 400);
  return body as Record<string, unknown>;
}

const invalid = (c: Context, details: FieldErrors) => c.json({ error: 'Validation failed', details }, 400);

export function registerControl(app: Hono, deps: EngineDeps) {
  const { notes, sessions, templates, regenerations } = collections(deps);
  /** Requested runs, those still waiting, and the run the latest note carries (0: never regenerated). */
  const regenerationOf = (org: string, sessionId: string, requested: number) => {
    const pending = regenerations.all(ENGINE_ORG).filter((e) => e.org === org && e.session_id === sessionId).length;
    return { requested, pending, applied_run: latestNote(deps, org, sessionId)?.regenerated_run ?? 0 };
  };

  app.get('/sessions', (c) => {
    const org = c.req.query('organization_id');
    const orgs = org ? deps.organizations.filter((o) => o === org) : deps.organizations;
    if (org && !orgs.length) return invalid(c, { organization_id: 'is not a seeded organization' });
    const data = orgs.flatMap((o) =>
      sessions.all(o).map((s) => ({
        id: s.id,
        organization_id: o,
        patient_id: s.patient_id,
        transcript_status: s.transcript.status,
        has_note: latestNote(deps, o, s.id) !== undefined,
        ready: isReady(deps, o, s),
        regeneration: regenerationOf(o, s.id, s.regen_runs),
      })),
    );
    return c.json({ data });
  });

  app.post('/sessions/:sessionId/finalize', async (c) => {
    const id = c.req.param('sessionId');
    const org = sessions.orgOf(id);
    const session = org ? sessions.get(org, id) : undefined;
    if (!org || !session) return c.json({ error: 'Session not found' }, 404);
    const body = await readObject(c, true);
    if (body instanceof Response) return body;
    const unknown = Object.keys(body).filter((k) => k !== 'template_id');
    if (unknown.length) return invalid(c, Object.fromEntries(unknown.map((k) => [k, 'unknown field'])));
    const templateId = body.template_id ?? session.template_id;
    const template = typeof templateId === 'string' ? templates.get(org, templateId) : undefined;
    if (!template) return invalid(c, { template_id: 'is not a template of the organization' });
    if (notes.all(org).some((n) => n.session_id === id && n.template_id === template.id))
      return c.json({ error: 'The session already has a note from this template' }, 409);

    const now = deps.clock.stamp();
    const transcript = { ...session.transcript, status: TRANSCRIPT_READY };
    sessions.put(org, { ...session, transcript });
    const note = noteRow(session, template, {
      id: crypto.randomUUID(),
      created_at: now,
      updated_at: now,
      content: writeNote({ template, transcript }),
    });
    notes.insert(org, note);
    deps.events.note(
      org,
      'NOTE_CREATED',
      { id: note.id, session_id: session.id, patient_id: note.patient_id, template_id: template.id },
      'session',
    );
    return c.json({ data: toDetail(deps, org, note, new Set()) }, 201);
  });

  app.patch('/notes/:noteId', async (c) => {
    const id = c.req.param('noteId');
    const org = notes.orgOf(id);
    const note = org ? notes.get(org, id) : undefined;
    if (!org || !note) return c.json({ error: 'Note not found' }, 404);
    const body = await readObject(c, false);
    if (body instanceof Response) return body;
    const details: FieldErrors = {};
    for (const k of Object.keys(body)) if (!EDITABLE.includes(k)) details[k] = 'unknown field';
    if (Object.keys(body).length === 0) details.body = `must set at least one of ${EDITABLE.join(', ')}`;
    if (Object.keys(details).length) return invalid(c, details);
    // The edited note must still be a valid note: the spec's NoteExport schema decides.
    const edited: NoteRow = { ...note, ...body, updated_at: laterThan(deps.clock.now(), note.updated_at) };
    const checked = deps.validator.schema('NoteExport')(toExport(edited));
    if (!checked.ok) return invalid(c, checked.details);
    notes.put(org, edited);
    deps.events.note(
      org,
      'NOTE_UPDATED',
      { id, session_id: note.session_id, patient_id: note.patient_id, template_id: note.template_id },
      null,
    );
    return c.json({ data: toDetail(deps, org, edited, new Set()) });
  });
}
