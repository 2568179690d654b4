// `clinical-records-mock/msw`: MSW request handlers answered by an in-process mock (createMock), for setupServer in
// Node and setupWorker in a page. MSW only routes: every answer, error and header is the engine's, exactly what
// mock.fetch gives. msw ^2 is an optional peer dependency: only this entry imports it.
import { http, type HttpHandler } from 'msw';
import type { InProcessMock } from './in-process/mock.ts';

/** Handlers for the mock's API (everything under baseUrl) and its control API (under controlUrl). */
export function clinicalRecordsHandlers(mock: Pick<InProcessMock, 'fetch' | 'baseUrl' | 'controlUrl'>): HttpHandler[] {
  if (!mock || typeof mock.fetch !== 'function' || typeof mock.baseUrl !== 'string' || typeof mock.controlUrl !== 'string')
    throw new TypeError('clinicalRecordsHandlers takes the mock createMock() returned');
  // A network failure of the mock (a drop, a timeout's end, a closed mock) is MSW's network error: the app's fetch
  // rejects with a TypeError, as it would on a real network. A request its caller aborted (a timeout fault given up
  // on) has already rejected there with the abort's reason; what is answered then is never seen.
  const answer = ({ request }: { request: Request }) =>
    mock.fetch(request).catch((e: unknown) => {
      if (e instanceof TypeError || request.signal.aborted) return Response.error();
      throw e;
    });
  return [mock.baseUrl, mock.controlUrl].flatMap((root) => [http.all(root, answer), http.all(`${root}/*`, answer)].map(saysNetworkError));
}

/**
 * MSW's console line (when not `quiet`) reads a network error as `(200 OK)`: its logger turns status 0 into 200
 * (msw/src/core/utils/logging/serializeResponse.ts). For such an answer this handler's line says what happened; any
 * other answer is logged by MSW as usual.
 */
function saysNetworkError(handler: HttpHandler): HttpHandler {
  const log = handler.log.bind(handler);
  handler.log = async (args) => {
    if (args.response.type !== 'error') return log(args);
    const t = new Date();
    const time = [t.getHours(), t.getMinutes(), t.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':');
    console.groupCollapsed(
      `[MSW] ${time} ${args.request.method} ${args.request.url} (%cnetwork error%c)`,
      'color:#e95f5d',
      'color:inherit',
    );
    console.log('Request', args.request);
    console.log('Response', 'none: the connection failed (a network fault of the mock, or the mock was closed)');
    console.groupEnd();
  };
  return handler;
}
