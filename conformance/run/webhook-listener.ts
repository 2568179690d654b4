// The run's webhook receiver: where the target delivers the events the webhook checks wait for. It listens with
// --webhook-receiver, or with --mock (which delivers to it); without either, the checks that need it are skipped.
import { Receiver } from '../target/receiver.ts';

/** Bad usage found only once the run starts (a --webhook-port that cannot listen): exit 2. */
export class BadInput extends Error {}

export interface WebhookListener {
  receiver?: Receiver;
  /** Why there is no receiver when one was wanted: the skip reason of the checks that need it. */
  note?: string;
}

export async function listenForWebhooks(opts: {
  webhookReceiver?: { port: number; host?: string };
  mock: boolean;
  receiver?: Receiver;
}): Promise<WebhookListener> {
  if (!opts.webhookReceiver && !opts.mock) return {};
  const receiver = opts.receiver ?? new Receiver();
  try {
    // Loopback unless told (--webhook-host): a tunnel on this machine reaches it there, nothing else can.
    await receiver.listen(opts.webhookReceiver?.port ?? 0, opts.webhookReceiver?.host ?? '127.0.0.1');
    return { receiver };
  } catch (err) {
    const note = `the webhook receiver could not listen: ${(err as Error).message}`;
    if (opts.webhookReceiver) throw new BadInput(note);
    return { note };
  }
}
