// How a check file declares its checks: a named top-level function and its rule. The name in every report is the
// function's name and the area is the rule id's prefix, so neither is ever written twice. Response checks (one
// exchange, whatever check caused it) are the judge's: judge/define.ts.
import { areaOf, type CheckContext, type CheckDef } from '../../run/model.ts';

export type CheckMeta = Omit<CheckDef, 'name' | 'area' | 'run'>;

export function check(run: (ctx: CheckContext) => Promise<void>, meta: CheckMeta): CheckDef {
  return { ...meta, name: run.name, area: areaOf(meta.rule), run };
}
