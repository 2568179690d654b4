// The response checks: each judges one exchange, whatever caused it (a rule check of the suite, --explore, recorded
// traffic), one file per rule area. The suite's runner applies them to every answer it gets.
import type { ResponseCheckDef } from '../define.ts';
import * as err from './err.ts';
import * as gen from './gen.ts';
import * as rate from './rate.ts';

/** Checks applied to every response of a run, attributed to them (in the order the suite has always reported them). */
export const responseChecks: ResponseCheckDef[] = [...gen.responseChecks, ...err.responseChecks, ...rate.responseChecks];
