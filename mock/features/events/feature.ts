// The events simulator: turns what features report (deps.events.note / documentStatusChanged) into webhook
// deliveries to the registering organization's receivers, and serves the control routes that register receivers
// and show deliveries. Reset (POST /__mock/reset) clears deliveries but keeps registrations, so a developer's
// receiver stays registered across test runs; registrations live in memory (not in the --state file).
import type { EngineDeps, Events, Feature } from '../../platform/deps.ts';
import { eventsContract } from './contract.ts';
import { createDeliverer, type DelivererOptions, type Sender } from './deliver.ts';
import type { Resolver } from './destination.ts';
import { encodeWebhookBody } from '../../../spec/runtime/webhook-encode.ts';
import { documentPayload, notePayload, type Built } from './payloads.ts';
import { createRegistry } from './registry.ts';
import { payloadLayout, retryJitter, shapePayload } from '../../readings/events.ts';
import { eventsControlRoutes } from './routes.ts';

export interface EventsOptions {
  deps: Omit<EngineDeps, 'events'>;
  /** --allow-private-webhooks: loopback and private receivers over plain http are allowed. */
  allowPrivateWebhooks: boolean;
  /** How webhooks reach receivers: the runtime's (node:http and DNS in Node; a fetch in process and in a page). */
  io: WebhookIO;
  /** Delivery tuning (tests); durations are simulated milliseconds, scaled by the clock. */
  delivery?: Partial<Omit<DelivererOptions, 'clock' | 'allowPrivate' | 'resolve' | 'isRegistered' | 'send'>>;
}

/** The transport of deliveries and the resolver of the destination check, swapped at the composition edge. */
export interface WebhookIO {
  send: Sender;
  resolve: Resolver;
}

export function createEvents(opts: EventsOptions): {
  events: Events;
  feature: Feature;
  close(): Promise<void>;
  /** Resolves when no delivery is in flight (tests). */
  idle(): Promise<void>;
} {
  const { deps } = opts;
  const contract = eventsContract();
  const registry = createRegistry({
    kinds: contract.kinds,
    // The seed's organizations, first is the default (known even when state is restored from --state).
    organizations: () => deps.organizations,
    allowPrivate: opts.allowPrivateWebhooks,
    resolve: opts.io.resolve,
    now: () => deps.clock.now(),
  });
  const deliverer = createDeliverer({
    jitter: retryJitter(deps.readings),
    ...opts.delivery,
    clock: deps.clock,
    allowPrivate: opts.allowPrivateWebhooks,
    resolve: opts.io.resolve,
    send: opts.io.send,
    isRegistered: (id) => registry.has(id),
  });

  /** Fans one event out to the organization's receivers; never throws into the API request that caused it. */
  const emit = (org: string, build: () => Built) => {
    try {
      const made = build();
      const built = { ...made, payload: shapePayload(deps.readings, made.payload as Record<string, string | null>) } as Built;
      const hooks = registry.subscribers(org, built.event);
      if (hooks.length === 0) return;
      if (!built.ok) {
        console.warn(`[events] ${built.event} not sent: ${built.error}`);
        for (const w of hooks) deliverer.recordFailure(w.id, built.event, built.payload, `not sent: ${built.error}`);
        return;
      }
      for (const w of hooks)
        deliverer.enqueue(
          { webhook_id: w.id, url: w.url, headers: w.headers },
          built.event,
          built.payload,
          encodeWebhookBody(built.payload, w.format, payloadLayout(deps.readings)),
        );
    } catch (e) {
      console.warn(`[events] event dropped: ${(e as Error).message}`);
    }
  };

  const events: Events = {
    note(org, kind, note, source) {
      emit(org, () => notePayload(kind, note, source, deps.clock.now(), deps.config.publicBaseUrl, contract));
    },
    documentStatusChanged(org, doc) {
      emit(org, () => documentPayload(doc, deps.clock.now(), deps.config.publicBaseUrl, contract));
    },
  };

  const feature: Feature = {
    name: 'events',
    control(app) {
      eventsControlRoutes(app, { registry, deliverer, kinds: contract.kinds });
    },
    seed() {
      // Called on start and on reset: deliveries go, registrations stay.
      deliverer.clear();
    },
  };

  return { events, feature, close: () => deliverer.close(), idle: () => deliverer.idle() };
}
