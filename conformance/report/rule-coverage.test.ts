// The share of the register a run exercised: a live run counts the documented rules testable from outside, less
// those it did not check; recorded traffic the documented exchange rules it exercised.
import { describe, expect, it } from 'vitest';
import { Register } from '../../spec/runtime/register.ts';
import { coverageLine, liveRuleCoverage, mergedRuleCoverage, trafficRuleCoverage } from './rule-coverage.ts';

const register = Register.load();
const testable = register.rules.filter((r) => r.provenance === 'documented' && r.testable !== 'not-from-outside');

describe('rule coverage', () => {
  it('a live run: the documented testable rules less those not checked', () => {
    const notChecked = [{ ruleId: 'PAT-021', rule: '', provenance: 'documented' as const, reason: 'skipped' }];
    const cov = liveRuleCoverage(register, notChecked);
    expect(cov).toMatchObject({
      of: 'documented testable rules',
      total: testable.length,
      exercised: testable.length - 1,
      missed: ['PAT-021'],
    });
    expect(coverageLine(cov)).toBe(
      `rule coverage: ${testable.length - 1} of ${testable.length} documented testable rules exercised (${cov.percent} %)`,
    );
  });

  it('recorded traffic: the documented exchange rules it exercised, an assumed or sequence rule not counted', () => {
    const cov = trafficRuleCoverage(register, new Set(['PAT-021', 'GEN-008', 'ERR-017', 'GEN-001']));
    const exchange = register.rules.filter((r) => r.provenance === 'documented' && r.seen === 'exchange').length;
    expect(cov).toMatchObject({ of: 'documented exchange rules', total: exchange, exercised: 2 });
    expect(cov.percent).toBe(Math.round((2 / exchange) * 1000) / 10);
  });

  it('shards of one run: a rule any shard exercised counts', () => {
    const a = liveRuleCoverage(register, [
      { ruleId: 'PAT-021', rule: '', provenance: 'documented', reason: '' },
      { ruleId: 'GEN-008', rule: '', provenance: 'documented', reason: '' },
    ]);
    const b = liveRuleCoverage(register, [{ ruleId: 'GEN-008', rule: '', provenance: 'documented', reason: '' }]);
    expect(mergedRuleCoverage([a, b])).toMatchObject({ exercised: testable.length - 1, missed: ['GEN-008'] });
    expect(mergedRuleCoverage([a, undefined])).toBeUndefined();
  });
});
