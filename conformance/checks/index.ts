// Every check of the suite, area by area (one file, or one folder, per rule-id prefix of spec/rules.yaml). The checks
// of one exchange, applied to every answer, are the judge's (judge/checks/).
import type { CheckDef } from '../run/model.ts';
import * as gen from './gen.ts';
import * as auth from './auth.ts';
import * as patFields from './pat/fields.ts';
import * as patSearchAndWrites from './pat/search-and-writes.ts';
import * as aptFields from './apt/fields.ts';
import * as aptLifecycle from './apt/lifecycle.ts';
import * as docUploadAnswers from './doc/upload-answers.ts';
import * as docExtractionRuns from './doc/extraction-runs.ts';
import * as prv from './prv.ts';
import * as note from './note.ts';
import * as regenBodiesAndRuns from './regen/bodies-and-runs.ts';
import * as regenSessionsAndKeys from './regen/sessions-and-keys.ts';
import * as xid from './xid.ts';
import * as pag from './pag.ts';
import * as errStatuses from './err/statuses.ts';
import * as errValidation from './err/validation.ts';
import * as lim from './lim.ts';
import * as rate from './rate.ts';
import * as ver from './ver.ts';
import * as evtDelivery from './evt/delivery.ts';
import * as evtAttempts from './evt/attempts.ts';
import * as evtFormats from './evt/formats.ts';
import * as evtReceived from './evt/received.ts';

type CheckFile = { checks?: CheckDef[] };

/** Each check file, by its path under checks/ (the layout test holds each to its area and its exports to its checks). */
// [path, module] pairs rather than an object literal: knip reads a module passed whole as every export used.
export const checkFiles: Record<string, CheckFile> = Object.fromEntries([
  ['gen.ts', gen],
  ['auth.ts', auth],
  ['pat/fields.ts', patFields],
  ['pat/search-and-writes.ts', patSearchAndWrites],
  ['apt/fields.ts', aptFields],
  ['apt/lifecycle.ts', aptLifecycle],
  ['doc/upload-answers.ts', docUploadAnswers],
  ['doc/extraction-runs.ts', docExtractionRuns],
  ['prv.ts', prv],
  ['note.ts', note],
  ['regen/bodies-and-runs.ts', regenBodiesAndRuns],
  ['regen/sessions-and-keys.ts', regenSessionsAndKeys],
  ['xid.ts', xid],
  ['pag.ts', pag],
  ['err/statuses.ts', errStatuses],
  ['err/validation.ts', errValidation],
  ['lim.ts', lim],
  ['rate.ts', rate],
  ['ver.ts', ver],
  ['evt/delivery.ts', evtDelivery],
  ['evt/attempts.ts', evtAttempts],
  ['evt/formats.ts', evtFormats],
  ['evt/received.ts', evtReceived],
]);

export const allChecks: CheckDef[] = Object.values(checkFiles).flatMap((f) => f.checks ?? []);
