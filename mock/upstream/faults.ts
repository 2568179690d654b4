// The faults a proxy can act out in front of the upstream: `rate-limited` (the 429 the documented body and
// Retry-After, which the upstream never sees) and `http` (pipeline.ts's httpFaults); network faults and --latency are
// the front's in every mode (network-faults.ts). The engine's own kinds (extraction, regeneration) need its state:
// arming one in this mode is refused (upstreamFaultRefusal).
import { faultScope, type EngineFaults } from '../platform/faults.ts';
import type { FaultKind } from '../platform/deps.ts';
import { httpFaults, type Check } from '../platform/pipeline.ts';
import { RATE_LIMIT_MESSAGE } from '../platform/rate-limit.ts';
import { answerError } from '../platform/responses.ts';

function rateLimitedFault(faults: EngineFaults): Check {
  return (c) => {
    if (!faults.armed || !faults.take('rate-limited', faultScope(c))) return undefined;
    return answerError(c, { error: RATE_LIMIT_MESSAGE }, 429, { 'Retry-After': '1' });
  };
}

export const upstreamFaults = (faults: EngineFaults): Check[] => [rateLimitedFault(faults), httpFaults(faults)];

const ENGINE_KINDS: readonly FaultKind[] = ['extraction-fails', 'extraction-not-queued', 'regeneration-unavailable'];

/** Why a fault cannot be armed in front of an upstream, or undefined when it can. */
export const upstreamFaultRefusal = (kind: FaultKind): string | undefined =>
  ENGINE_KINDS.includes(kind) ? `${kind} needs the mock's engine; with --upstream the real service decides it` : undefined;
