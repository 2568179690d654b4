// The run's first contact with the target, before any check: is it reachable and the API, is it this kit's mock when
// --mock says so, which keys the run holds, and does the main key pass. Any of these failing ends the run (exit 2).
import type { Exchange } from '../../judge/define.ts';
import type { Redactor } from '../report/redact.ts';
import type { Http, KeyRef } from '../target/http.ts';
import type { MockControl } from '../target/mock-control.ts';
import { resolveKeys, type KeyInputs } from './keys.ts';
import type { Keys } from './model.ts';
import { armedText, faultsNow, giveBackFaults } from './probe-faults.ts';
import { probeTarget, reachTarget, UnreachableTarget } from './target-probe.ts';

interface Connected {
  keys: Keys;
  /** The probe's answers: their X-RateLimit-* headers say whether the key's limit will pace the run. */
  probed: Exchange[];
  /** The faults armed before the run that the probe took and the run armed again (probe-faults.ts), said in the report. */
  probeFaults?: string;
}

export async function connectTarget(
  http: Http,
  mock: MockControl | undefined,
  inputs: KeyInputs & { url: string },
  redactor: Redactor,
): Promise<Connected> {
  // The faults a user armed before the run: the probe below must not take them unseen (probe-faults.ts).
  const armedBefore = mock && (await faultsNow(mock));
  let keys: Keys;
  let probed: Exchange[];
  try {
    // Reachability first, without a key: a transport error or a redirect is exit 2.
    const unkeyed = await reachTarget(http, inputs.url);
    http.exchanges.length = 0;
    if (mock && !(await mock.health()))
      throw new UnreachableTarget(`--mock: the control API ${mock.url}/health does not answer 200; is the target this kit's mock?`);
    keys = await resolveKeys(inputs, mock);
    for (const k of allKeyRefs(keys)) redactor.add(k.value, `$${k.envVar}`);
    http.knowKeys(allKeyRefs(keys));
    // The main key refused, or no answer as the API (a base URL without /ext-api/v1, a web site): exit 2 with a hint.
    await probeTarget(http, keys.main, inputs.url, unkeyed);
    probed = http.exchanges.splice(0);
  } catch (e) {
    if (armedBefore?.length && e instanceof Error)
      e.message += ` (the mock had faults armed before the run, which these first requests may have met: ${armedText(armedBefore)})`;
    throw e;
  }
  const probeFaults = mock && armedBefore?.length ? await giveBackFaults(mock, armedBefore) : undefined;
  return { keys, probed, probeFaults };
}

function allKeyRefs(keys: Keys): KeyRef[] {
  return [keys.main, ...keys.scoped.map((s) => s.key), keys.otherOrg, keys.expired, keys.revoked].filter((k): k is KeyRef => !!k);
}
