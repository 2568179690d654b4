// Every check of the suite, area by area (one file, or one folder, per rule-id prefix of spec/rules.yaml).
import type { CheckDef } from '../model.ts';
import type { ResponseCheckDef } from './support/define.ts';
import * as gen from './gen.ts';
import * as auth from './auth.ts';
import * as pat from './pat.ts';
import * as apt from './apt.ts';
import * as doc from './doc.ts';
import * as prv from './prv.ts';
import * as note from './note.ts';
import * as regen from './regen.ts';
import * as xid from './xid.ts';
import * as pag from './pag.ts';
import * as err from './err.ts';
import * as lim from './lim.ts';
import * as rate from './rate.ts';
import * as ver from './ver.ts';
import * as evtDelivery from './evt/delivery.ts';
import * as evtAttempts from './evt/attempts.ts';
import * as evtFormats from './evt/formats.ts';
import * as evtReceived from './evt/received.ts';

type CheckFile = { checks?: CheckDef[]; responseChecks?: ResponseCheckDef[] };

/** Each check file, by its path under checks/ (the layout test holds each to its area and its exports to its checks). */
// [path, module] pairs rather than an object literal: knip reads a module passed whole as every export used.
export const checkFiles: Record<string, CheckFile> = Object.fromEntries([
  ['gen.ts', gen],
  ['auth.ts', auth],
  ['pat.ts', pat],
  ['apt.ts', apt],
  ['doc.ts', doc],
  ['prv.ts', prv],
  ['note.ts', note],
  ['regen.ts', regen],
  ['xid.ts', xid],
  ['pag.ts', pag],
  ['err.ts', err],
  ['lim.ts', lim],
  ['rate.ts', rate],
  ['ver.ts', ver],
  ['evt/delivery.ts', evtDelivery],
  ['evt/attempts.ts', evtAttempts],
  ['evt/formats.ts', evtFormats],
  ['evt/received.ts', evtReceived],
]);

export const allChecks: CheckDef[] = Object.values(checkFiles).flatMap((f) => f.checks ?? []);

/** Checks applied to every response of the run, attributed to them. */
export const responseChecks: ResponseCheckDef[] = Object.values(checkFiles).flatMap((f) => f.responseChecks ?? []);
