// The checks on deliveries the suite's receiver gets. With --mock they pass against the mock (the harness's three
// runs). Without it, as against a deployment with --webhook-receiver: a loopback sender plays the service's webhook
// side (testing/service-sender.ts), in every documented format and layout, with the documented retry timing or
// retries 50 ms apart; with no sender, nothing is registered and the checks skip, saying so, within their budget.
import { afterEach, describe, expect, it } from 'vitest';
import { checkBudgetMs } from '../../run/durations.ts';
import { Receiver } from '../../target/receiver.ts';
import { runSuite } from '../../run/runner.ts';
import { checksNamed, describeCheckFile, failureLines, suiteOptions } from '../../testing/check-file.ts';
import { LAYOUTS, type Sender, type SenderOptions, startServiceSender } from '../../testing/service-sender.ts';
import { checks as received } from './received.ts';

const checks = checksNamed(received.map((c) => c.name));
const file = describeCheckFile('received-webhook checks', checks);

/** The checks that share one upload's delivery, answered 500, 500, then 200. */
const SHARED = [
  'webhook_payload_schema',
  'received_delivery_is_post',
  'webhook_retries_identical_payload',
  'received_retry_backoff',
  'document_url_lookup',
];

let sender: Sender | undefined;
afterEach(async () => {
  await sender?.close();
  sender = undefined;
});

/** A run without --mock, with --webhook-receiver (its port free), and a sender playing the service when given. */
async function runWithoutMock(only: string[], send?: Omit<SenderOptions, 'mockOrigin' | 'event' | 'target'>) {
  const receiver = new Receiver();
  if (send)
    sender = await startServiceSender({
      ...send,
      mockOrigin: new URL(file.mock().url).origin,
      event: 'DOCUMENT_STATUS_CHANGED',
      target: () => `http://127.0.0.1:${receiver.port}/hooks/crc`,
    });
  const { report } = await runSuite({
    ...suiteOptions(file.mock().url),
    mock: false,
    key: file.mainKey(),
    only,
    webhookReceiver: { publicUrl: 'https://hooks.example.org/crc', port: 0 },
    receiver,
  });
  return { report, receiver, outcome: (name: string) => report.results.find((r) => r.name === name)! };
}

// One broken service per check proven here: [check, rule, how the service sends].
const broken: Array<[string, string, string, Omit<SenderOptions, 'mockOrigin' | 'event' | 'target'>]> = [
  ['received_retry_backoff', 'EVT-035', 'retries 50 ms, then 50 ms apart', { backoffMs: [50, 50] }],
  [
    'document_url_lookup',
    'EVT-023',
    'names the collection as document_url though an external_id was set',
    { backoffMs: [1_000, 2_000], edit: (p) => void (p.document_url = String(p.document_url).replace(/\?.*$/, '')) },
  ],
];

describe('received-webhook checks without --mock (a loopback sender plays the service)', () => {
  for (const layout of Object.keys(LAYOUTS))
    it(`reads a ${layout} delivery: payload, POST and identical retries pass`, async () => {
      // Retries 20 ms apart keep the run short; the backoff check is not run here.
      const { report, receiver } = await runWithoutMock(SHARED.slice(0, 3), { encode: LAYOUTS[layout], backoffMs: [20, 20] });
      expect(failureLines(report)).toEqual([]);
      expect(report.results.map((r) => `${r.name} ${r.outcome}`)).toEqual(
        expect.arrayContaining(SHARED.slice(0, 3).map((n) => `${n} passed`)),
      );
      expect(new Set(receiver.deliveries.map((d) => d.format))).toEqual(new Set([layout.split(',')[0]]));
    }, 20_000);

  it('times the retries on the receiver: 1 s then 2 s passes EVT-035 (and every shared check)', async () => {
    const { report, receiver } = await runWithoutMock(SHARED, {});
    expect(failureLines(report)).toEqual([]);
    expect(report.results.filter((r) => SHARED.includes(r.name)).map((r) => r.outcome)).toEqual(SHARED.map(() => 'passed'));
    expect(receiver.deliveries.map((d) => d.answered)).toEqual([500, 500, 200]);
  }, 30_000);

  for (const [check, rule, how, send] of broken)
    it(`${check} fails on ${rule} against a service that ${how}`, async () => {
      const { report, outcome } = await runWithoutMock(SHARED, send);
      expect(outcome(check).outcome, JSON.stringify(outcome(check))).toBe('failed');
      expect(outcome(check).failures.every((f) => f.ruleId === rule)).toBe(true);
      // One defect, one failure.
      expect(report.results.filter((r) => r.outcome === 'failed').map((r) => r.name)).toEqual([check]);
    }, 30_000);

  it("gives a check's scripted answers only to its own deliveries, though another document's arrives first", async () => {
    const { report } = await runWithoutMock(SHARED.slice(2, 3), { strayFirst: true, backoffMs: [20, 20] });
    expect(failureLines(report)).toEqual([]);
    expect(report.results.find((r) => r.name === SHARED[2])?.outcome).toBe('passed');
    // The stray came first and was answered 200; the check's own document got 500, 500, 200.
    expect(sender!.sent.map((s) => s.status)).toEqual([200, 500, 500, 200]);
    expect(new Set(sender!.sent.slice(1).map((s) => s.id)).size).toBe(1);
  }, 20_000);

  it('with no webhook registered, every shared check skips with the reason, within its budget', async () => {
    const { report, outcome } = await runWithoutMock(SHARED);
    for (const name of SHARED) {
      const r = outcome(name);
      expect(r.outcome, JSON.stringify(r)).toBe('skipped');
      expect(r.reason).toMatch(
        /no DOCUMENT_STATUS_CHANGED delivery for document .* within 10 s of its extraction ending \(completed\): is a webhook for DOCUMENT_STATUS_CHANGED registered/,
      );
      expect(r.ms).toBeLessThan(checkBudgetMs(checks.find((c) => c.name === name)!.waits, 30_000).ms);
    }
    // One wait for them all: the extraction, then the margin for its event.
    expect(report.seconds).toBeLessThan(20);
  }, 30_000);
});
