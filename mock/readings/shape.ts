// The last step of every API answer when readings are played: the answer as the chosen readings' server gives it
// (answers.ts), before the journal records it, so the journal, the dashboard and the HAR show what the client saw.
import type { EngineContext } from '../platform/deps.ts';
import type { ActiveReadings } from './active.ts';
import { type AnswerView, headerForms, shapeAnswer } from './answers.ts';
import { adapterOf } from '../platform/adapter.ts';

const isJson = (type: string | null) => !!type && /^application\/(.+\+)?json\b/i.test(type);

/** Headers the transport already holds (the node adapter's rate-limit headers) in the readings' forms. */
function restateSent(c: EngineContext, view: AnswerView, readings: ActiveReadings): void {
  const sent = c.get('sentHeaders');
  const adapter = adapterOf(c);
  if (!sent || !adapter?.setHeaders) return;
  const headers = new Headers(sent);
  headerForms({ headers }, view, readings);
  const shaped = Object.fromEntries(headers);
  adapter.setHeaders(shaped);
  c.set('sentHeaders', shaped); // the journal's, as the client got them
}

export type AnswerShaper = (c: EngineContext, res: Response) => Promise<Response>;

/** The shaper for a set of readings; undefined when none is played (the front then pays nothing). */
export function answerShaper(readings: ActiveReadings): AnswerShaper | undefined {
  if (!readings.any) return undefined;
  return async (c, res) => {
    const headers = new Headers(res.headers);
    const json = isJson(headers.get('content-type'));
    const text = json ? await res.text() : undefined;
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      return new Response(text, { status: res.status, headers });
    }
    const answer = { status: res.status, body, headers };
    const url = new URL(c.req.url);
    const view = {
      operationId: c.get('operationId'),
      method: c.req.method,
      query: url.searchParams,
      now: Date.now(),
      keyOk: !!c.get('keyCheck')?.ok,
    };
    shapeAnswer(answer, view, readings);
    restateSent(c, view, readings);
    const out = answer.body === undefined ? (text ?? res.body) : JSON.stringify(answer.body);
    if (answer.status >= 400 && typeof out === 'string') c.set('errorBody', out);
    headers.delete('content-length');
    return new Response(out, { status: answer.status, headers });
  };
}
