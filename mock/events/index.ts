// Placeholder until the events simulator lands (issue 5): records nothing, delivers nothing.
// The events helper replaces this file; the signature below is the one the platform wires.
import type { EngineDeps, EngineModule, Events } from '../engine/deps.ts';

export interface EventsOptions {
  deps: Omit<EngineDeps, 'events'>;
  /** --allow-private-webhooks: loopback and private receivers over plain http are allowed. */
  allowPrivateWebhooks: boolean;
}

export function createEvents(_opts: EventsOptions): { events: Events; module: EngineModule; close(): Promise<void> } {
  return {
    events: { note() {}, documentStatusChanged() {} },
    module: { name: 'events' },
    async close() {},
  };
}
