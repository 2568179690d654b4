// The results of a run as they come, and its progress: once every check of an area has a result, the area's results
// are handed on (the console prints its progress line then).
import type { Area, CheckResult } from './model.ts';

export class AreaProgress {
  readonly results: CheckResult[] = [];
  /** Checks of each area still without a result. */
  private readonly left = new Map<Area, number>();

  /** `areas`: the area of every check the run will give a result to, one entry per check. */
  constructor(
    areas: Area[],
    private readonly onArea?: (area: Area, results: CheckResult[]) => void,
  ) {
    for (const a of areas) this.left.set(a, (this.left.get(a) ?? 0) + 1);
  }

  readonly finish = (r: CheckResult): void => {
    this.results.push(r);
    const left = this.left.get(r.area)! - 1;
    this.left.set(r.area, left);
    if (left === 0)
      this.onArea?.(
        r.area,
        this.results.filter((x) => x.area === r.area),
      );
  };
}
