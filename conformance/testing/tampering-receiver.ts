// A webhook receiver that alters what it records, to play a service that sends wrong payloads (the broken variants
// of the webhook checks: the mock's deliveries go straight to the receiver, so the proxy cannot touch them).
// Test-only.
import { Receiver, type Delivery } from '../target/receiver.ts';

type Payload = Record<string, unknown>;

export class TamperingReceiver extends Receiver {
  private n = 0;

  /**
   * `tamper` gets each parsed payload (and its arrival index) and returns the payload to record instead;
   * `recordAs` overrides other fields of every delivery (e.g. the method it came with).
   */
  constructor(
    private readonly tamper: (json: Payload, index: number) => Payload,
    private readonly recordAs: Partial<Pick<Delivery, 'method'>> = {},
  ) {
    super();
  }

  protected override record(d: Delivery): void {
    if (d.json && typeof d.json === 'object') {
      const json = this.tamper(structuredClone(d.json as Payload), this.n++);
      super.record({ ...d, ...this.recordAs, json, body: JSON.stringify(json) });
    } else super.record({ ...d, ...this.recordAs });
  }
}
