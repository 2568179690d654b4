// EVT: how deliveries are attempted: POST, the timeout, at most three attempts with backoff, 3xx not followed,
// no signature header, 2xx acknowledges, only four event kinds.
import { randomBytes } from 'node:crypto';
import type { CheckContext, CheckDef } from '../../run/model.ts';
import {
  type Hook,
  awaitDoc,
  type Hit,
  withProbe,
  ok200,
  DOC_EVENT,
  upload,
  NOTE_EVENT,
  touchNote,
  parse,
  timingWithUnit,
  expectTimeouts,
  timing,
  ms,
  gaps,
  backoffFits,
  backoffWindow,
} from '../support/webhook-probe.ts';
import type { Obj } from '../support/common.ts';
import { check } from '../support/define.ts';
import { attemptsText, expectLoggedBackoff, expectLoggedTimeouts, type LoggedDelivery, settledLog } from '../support/delivery-log.ts';

const hexToken = () => randomBytes(6).toString('hex');

// Header names that would carry a signature (Standard Webhooks, GitHub, Stripe, Slack, ... and HTTP's own). Not a
// delivery id, a timestamp or a content digest alone (Webhook-Id, Content-Digest): none of them is a signature.
const SIGNATURE_HEADER = /sign|hmac|^authorization$/i;

export async function webhook_delivery_is_post(ctx: CheckContext): Promise<void> {
  // Each first attempt answered 503, so the retries are seen too.
  await withProbe(
    ctx,
    (_, nth) => ({ status: nth === 1 ? 503 : 200 }),
    async (probe, hook) => {
      const docHook = await hook(DOC_EVENT, 'post-doc');
      const noteHook = await hook(NOTE_EVENT, 'post-note', { format: 'XML' });
      const doc = await upload(ctx);
      const noteId = String((await touchNote(ctx)).id);
      const seen = () => [probe.on(docHook.path, doc.docId), probe.on(noteHook.path, noteId)];
      await awaitDoc(ctx, probe, doc, () => seen().every((hs) => hs.length >= 2));
      for (const [event, hs] of [
        [DOC_EVENT, seen()[0]!],
        [NOTE_EVENT, seen()[1]!],
      ] as const) {
        if (
          !ctx.expect(hs.length >= 1, {
            expected: `a ${event} delivery`,
            actual: 'none',
            says: [
              'DOCUMENT_STATUS_CHANGED | document text extraction reaches completed or failed',
              'NOTE_UPDATED | an existing note is edited, saved or reverted',
            ],
          })
        )
          continue;
        ctx.expect(
          hs.every((x) => x.method === 'POST'),
          {
            expected: `every ${event} attempt (first and retry) is a POST`,
            actual: hs.map((x, i) => `attempt ${i + 1}: ${x.method}`).join(', '),
            says: 'Method POST',
          },
        );
      }
    },
  );
}

export async function webhook_attempt_times_out(ctx: CheckContext): Promise<void> {
  const t = await timingWithUnit(ctx);
  if (
    !ctx.expect(t.held.length >= 1, {
      expected: 'a delivery to the receiver that never answers',
      actual: 'none',
      says: 'DOCUMENT_STATUS_CHANGED | document text extraction reaches completed or failed',
    })
  )
    return;
  // On the mock its log says what the timeout was; a receiver's clock alone cannot at a scaled second.
  if (t.logged) expectLoggedTimeouts(ctx, t.logged.held.slice(0, 1), heldTimes(t.held.slice(0, 1)));
  else expectTimeouts(ctx, t, t.held.slice(0, 1));
}

/** How long the receiver held each attempt open before the sender let it go. */
const heldTimes = (hs: Hit[]) => hs.map((h) => (h.end === undefined ? undefined : h.end - h.at));

export async function webhook_at_most_three_attempts(ctx: CheckContext): Promise<void> {
  const t = await timing(ctx);
  const receivers: Array<[string, Hit[]]> = [
    ...t.failing.map((hs, i) => [`the receiver answering ${[500, 502, 503][i]}`, hs] as [string, Hit[]]),
    ['the receiver that never answers', t.held],
  ];
  if (
    !ctx.expect(
      receivers.some(([, hs]) => hs.length > 0),
      {
        expected: 'deliveries to the failing receivers',
        actual: 'none',
        says: 'DOCUMENT_STATUS_CHANGED | document text extraction reaches completed or failed',
      },
    )
  )
    return;
  for (const [label, hs] of receivers)
    ctx.expect(hs.length <= 3, {
      expected: `at most 3 attempts to ${label}`,
      actual: `${hs.length} attempts, counted ${ms(t.quietMs)} after the last expected one`,
      says: 'Up to 3 attempts',
    });
}

export async function webhook_backoff_exponential(ctx: CheckContext): Promise<void> {
  // With 3 attempts the gaps are 1 s and 2 s; the 5 s cap would first bind on a fifth attempt, so it is not seen.
  const t = await timingWithUnit(ctx);
  const three = t.failing.filter((hs) => hs.length === 3);
  if (
    !ctx.expect(three.length > 0, {
      expected: 'a delivery answered 5xx three times, so its two backoff gaps',
      actual: t.failing.map((hs) => `${hs.length} attempt(s)`).join(', '),
      says: 'Up to 3 attempts, with exponential backoff of 1 s then 2 s, capped at 5 s. Responses 408, 429 and 5xx are retried',
    })
  )
    return;
  // On the mock its log gives the backoff in service time; the receivers' gaps must agree with it.
  if (t.logged) {
    for (const [i, hs] of t.failing.entries())
      if (hs.length === 3) expectLoggedBackoff(ctx, `the receiver answering ${[500, 502, 503][i]}`, t.logged.failing[i]!, gaps(hs));
    return;
  }
  // The shortest gaps of the three receivers: timers only ever run late.
  const g1 = Math.min(...three.map((hs) => gaps(hs)[0]!));
  const g2 = Math.min(...three.map((hs) => gaps(hs)[1]!));
  const [w1, w2] = [backoffWindow(1, t.unit), backoffWindow(2, t.unit)];
  ctx.expect(backoffFits(g1, g2, t.unit), {
    expected: `backoff of 1 s then 2 s (1 s ≈ ${ms(t.unit)}): gaps of ${w1.map(ms).join('..')} then ${w2.map(ms).join('..')}`,
    actual: `shortest gaps ${ms(g1)} then ${ms(g2)}; per receiver ${three.map((hs) => gaps(hs).map(ms).join('/')).join(', ')}`,
    says: 'exponential backoff of 1 s then 2 s, capped at 5 s',
  });
}

export async function webhook_3xx_not_followed(ctx: CheckContext): Promise<void> {
  const moved = `/${ctx.runId}/moved-${hexToken()}`;
  let origin = '';
  await withProbe(
    ctx,
    (path) =>
      path === moved
        ? { status: 200 }
        : { status: Number(/\/redirect(\d{3})-/.exec(path)?.[1] ?? 200), headers: { Location: `${origin}${moved}` } },
    async (probe, hook) => {
      origin = probe.url('');
      const hooks: Array<[number, Hook]> = [];
      for (const s of [301, 302, 303, 307, 308]) hooks.push([s, await hook(DOC_EVENT, `redirect${s}`)]);
      const doc = await upload(ctx);
      await awaitDoc(ctx, probe, doc, () => hooks.every(([, h]) => probe.on(h.path, doc.docId).length > 0));
      for (const [s, h] of hooks) {
        if (
          !ctx.expect(probe.on(h.path, doc.docId).length > 0, {
            expected: `a delivery to the receiver answering ${s}`,
            actual: 'none',
            says: 'DOCUMENT_STATUS_CHANGED | document text extraction reaches completed or failed',
          })
        )
          continue;
        const log = await settledLog(ctx, h.id, doc.docId);
        ctx.expect(log.length > 0 && log.every((d) => d.state === 'failed'), {
          expected: `the delivery answered ${s} (Location ${moved}) is an error: not delivered (GET /__mock/deliveries state failed)`,
          actual: attemptsText(log),
          says: 'A 3xx response is an error (redirects are not followed).',
        });
      }
      const followed = probe.on(moved, doc.docId);
      ctx.expect(!followed.length, {
        expected: `no request to the Location ${moved}: redirects are not followed`,
        actual: followed.map((x) => `${x.method} ${x.url}`).join(', '),
        says: 'A 3xx response is an error (redirects are not followed).',
      });
    },
  );
}

export async function webhook_no_signature_secret_header(ctx: CheckContext): Promise<void> {
  await withProbe(ctx, ok200, async (probe, hook) => {
    const secret = hexToken();
    const withSecret = await hook(DOC_EVENT, 'secret', { headers: { 'X-Crc-Webhook-Secret': secret } });
    const plain = await hook(DOC_EVENT, 'plain');
    const doc = await upload(ctx);
    await awaitDoc(ctx, probe, doc, () => [withSecret, plain].every((h) => probe.on(h.path, doc.docId).length > 0));
    const s = probe.on(withSecret.path, doc.docId);
    const p = probe.on(plain.path, doc.docId);
    if (
      !ctx.expect(s.length > 0 && p.length > 0, {
        expected: 'a delivery to each of the two webhooks',
        actual: `${s.length} and ${p.length}`,
        says: 'DOCUMENT_STATUS_CHANGED | document text extraction reaches completed or failed',
      })
    )
      return;
    ctx.expect(
      s.every((x) => x.headers['x-crc-webhook-secret'] === secret),
      {
        expected: `the secret configured as static header X-Crc-Webhook-Secret: ${secret}`,
        actual: s.map((x) => JSON.stringify(x.headers['x-crc-webhook-secret'])).join(', '),
        says: 'optional static headers sent with every delivery (for example a shared secret)',
      },
    );
    for (const x of [...s, ...p]) {
      const signed = Object.keys(x.headers).filter((k) => SIGNATURE_HEADER.test(k));
      ctx.expect(!signed.length, {
        expected: 'no signature header (there is no signature scheme)',
        actual: signed.map((k) => `${k}: ${String(x.headers[k])}`).join(', '),
        says: 'No signature scheme exists; authenticity is checked by a secret the user puts into a configured static header.',
      });
    }
    ctx.expect(
      p.every((x) => !Object.values(x.headers).some((v) => String(v).includes(secret))),
      {
        expected: 'the secret only on the webhook that configured it',
        actual: `a delivery to the webhook without static headers carries ${secret}`,
        says: ['optional static headers sent with every delivery', 'a secret the user puts into a configured static header'],
      },
    );
  });
}

export async function webhook_2xx_acknowledges(ctx: CheckContext): Promise<void> {
  // A reference receiver answers 500 once: its retry shows retries happen and how long 1 s is here.
  await withProbe(
    ctx,
    (path, nth) => ({ status: path.includes('/reference-') ? (nth === 1 ? 500 : 200) : Number(/\/ack(\d{3})-/.exec(path)?.[1] ?? 200) }),
    async (probe, hook) => {
      const ref = await hook(DOC_EVENT, 'reference');
      const acks: Array<[number, Hook]> = [];
      for (const s of [200, 201, 202, 204]) acks.push([s, await hook(DOC_EVENT, `ack${s}`)]);
      const doc = await upload(ctx);
      await awaitDoc(
        ctx,
        probe,
        doc,
        () => probe.on(ref.path, doc.docId).length >= 2 && acks.every(([, h]) => probe.on(h.path, doc.docId).length > 0),
      );
      const r = probe.on(ref.path, doc.docId);
      if (r.length < 2)
        return ctx.skip(
          `the reference receiver answering 500 saw no retry (${r.length} attempt): a missing retry of a 2xx would prove nothing`,
        );
      const unit = gaps(r)[0]!;
      // A retry of an acknowledged attempt would come about 1 s after it: wait for 5 s of service time.
      const last = Math.max(...acks.map(([, h]) => probe.on(h.path, doc.docId)[0]?.end ?? 0));
      await ctx.sleep(Math.max(100, last + 5 * unit - performance.now()));
      for (const [s, h] of acks) {
        const hs = probe.on(h.path, doc.docId);
        if (
          !ctx.expect(hs.length > 0, {
            expected: `a delivery to the receiver answering ${s}`,
            actual: 'none',
            says: 'DOCUMENT_STATUS_CHANGED | document text extraction reaches completed or failed',
          })
        )
          continue;
        const log = await settledLog(ctx, h.id, doc.docId);
        ctx.expect(hs.length === 1 && log.length > 0 && log.every((d) => d.state === 'delivered'), {
          expected: `${s} acknowledges: one attempt, no retry, delivered (GET /__mock/deliveries)`,
          actual: `${hs.length} attempt(s) within ${ms(5 * unit)} (5 s here); ${attemptsText(log)}`,
          says: 'kit: a 2xx answer acknowledges a delivery (the acknowledging status is not shown; 408, 429, 5xx and 3xx are not)',
        });
      }
    },
  );
}

export async function only_four_event_kinds(ctx: CheckContext): Promise<void> {
  const kinds = Object.keys((ctx.contract.resolve('#/webhooks') as Obj | undefined) ?? {});
  if (
    !ctx.expect(kinds.length === 4, {
      expected: "the spec's webhooks: the four event kinds",
      actual: kinds.join(', ') || 'none',
      says: 'kit: the four event kinds only (events other than these four are not shown)',
    })
  )
    return;
  await withProbe(ctx, ok200, async (probe, hook) => {
    // Event kinds the kit does not have are refused at registration.
    for (const other of ['PATIENT_CREATED', 'DOCUMENT_UPLOADED', 'NOTE_DELETED', 'APPOINTMENT_UPDATED']) {
      const r = await ctx.mock!.call<{ data?: { id?: string } }>('POST', '/webhooks', {
        name: `${ctx.prefix}${other}`,
        url: probe.url(`/${ctx.runId}/other`),
        event: other,
        ...(ctx.keys.mainOrg ? { organization_id: ctx.keys.mainOrg } : {}),
      });
      if (r.body?.data?.id) await ctx.mock!.call('DELETE', `/webhooks/${r.body.data.id}`).catch(() => undefined);
      ctx.expect(r.status >= 400 && r.status < 500, {
        expected: `a webhook for ${other} (not one of ${kinds.join(', ')}) refused with 4xx`,
        actual: `${r.status} ${JSON.stringify(r.body).slice(0, 200)}`,
        says: ['event type (one of the four)', 'kit: the mock control API refuses a webhook for another event kind with a 4xx'],
      });
    }
    const hooks = new Map<string, Hook>();
    for (const k of kinds) hooks.set(k, await hook(k, `kind-${k}`));
    const doc = await upload(ctx);
    const noteId = String((await touchNote(ctx)).id);
    await awaitDoc(
      ctx,
      probe,
      doc,
      () => probe.on(hooks.get(DOC_EVENT)!.path, doc.docId).length > 0 && probe.on(hooks.get(NOTE_EVENT)!.path, noteId).length > 0,
    );
    const mine = probe.hits.filter((x) => x.path !== `/${ctx.runId}/other`);
    ctx.expect(probe.on(hooks.get(DOC_EVENT)!.path, doc.docId).length > 0 && probe.on(hooks.get(NOTE_EVENT)!.path, noteId).length > 0, {
      expected: `a ${DOC_EVENT} and a ${NOTE_EVENT} delivery`,
      actual: `${mine.length} deliveries: ${mine.map((x) => String(parse(x.body)?.event)).join(', ')}`,
      says: [
        'DOCUMENT_STATUS_CHANGED | document text extraction reaches completed or failed',
        'NOTE_UPDATED | an existing note is edited, saved or reverted',
      ],
    });
    for (const x of mine) {
      const kind = [...hooks].find(([, h]) => h.path === x.path)?.[0];
      const event = parse(x.body)?.event;
      ctx.expect(typeof event === 'string' && kinds.includes(event) && event === kind, {
        expected: `a delivery to the ${kind ?? '(no)'} webhook carries event ${kind} (one of ${kinds.join(', ')})`,
        actual: x.body.slice(0, 300),
        says: ['event type (one of the four)', '| event | string, the event kind |'],
      });
    }
    // Nor does the mock's delivery log know any other event.
    const log = await ctx.mock!.call<{ data?: LoggedDelivery[] & Array<{ event?: string }> }>('GET', '/deliveries');
    const others = (log.body?.data ?? []).map((d) => String((d as { event?: string }).event)).filter((e) => !kinds.includes(e));
    ctx.expect(!others.length, {
      expected: `GET /__mock/deliveries lists only ${kinds.join(', ')}`,
      actual: [...new Set(others)].join(', '),
      says: 'kit: the kit emits no event kind but the four (events other than these four are not shown)',
    });
  });
}

export const checks: CheckDef[] = [
  check(webhook_delivery_is_post, { rule: 'EVT-032', needs: { mock: true, write: true }, exclusive: true, waits: ['extraction'] }),
  check(webhook_attempt_times_out, {
    rule: 'EVT-033',
    needs: { mock: true, write: true },
    exclusive: true,
    waits: ['extraction', 'delivery'],
  }),
  check(webhook_at_most_three_attempts, {
    rule: 'EVT-034',
    needs: { mock: true, write: true },
    exclusive: true,
    waits: ['extraction', 'delivery'],
  }),
  check(webhook_backoff_exponential, {
    rule: 'EVT-035',
    needs: { mock: true, write: true },
    exclusive: true,
    waits: ['extraction', 'delivery'],
  }),
  check(webhook_3xx_not_followed, { rule: 'EVT-038', needs: { mock: true, write: true }, waits: ['extraction', 'delivery'] }),
  check(webhook_no_signature_secret_header, { rule: 'EVT-041', needs: { mock: true, write: true }, waits: ['extraction'] }),
  check(webhook_2xx_acknowledges, {
    rule: 'EVT-045',
    provenance: 'assumed',
    needs: { mock: true, write: true },
    waits: ['extraction', 'delivery'],
  }),
  check(only_four_event_kinds, {
    rule: 'EVT-047',
    provenance: 'assumed',
    needs: { mock: true, write: true },
    exclusive: true,
    waits: ['extraction'],
  }),
];
