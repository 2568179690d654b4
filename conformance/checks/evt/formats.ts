// EVT: delivery formats. JSON, XML and Form Data deliveries carry the payload's fields, in the layout the kit chose.
import {
  type Hit,
  withProbe,
  ok200,
  type Hook,
  DOC_EVENT,
  NOTE_EVENT,
  upload,
  touchNote,
  awaitDoc,
  schemaFields,
  parse,
} from '../support/webhook-probe.ts';
import type { CheckContext, CheckDef } from '../../model.ts';
import type { Obj } from '../support/common.ts';
import { check } from '../support/define.ts';
import { decodeXmlFields, XSI_NAMESPACE } from '../../../spec/runtime/webhook-codec.ts';

const mediaType = (h: Hit) =>
  String(h.headers['content-type'] ?? '')
    .split(';')[0]!
    .trim()
    .toLowerCase();

// ----- formats: one event of each kind delivered as JSON (the default), XML and Form Data -----

const FORMATS = [
  { name: 'JSON', media: /json/ },
  { name: 'XML', media: /xml/ },
  { name: 'Form Data', media: /x-www-form-urlencoded/ },
] as const;

type FormatName = (typeof FORMATS)[number]['name'];

interface FormatSample {
  event: string;
  /** The resource id the event names (document or note). */
  id: string;
  /** The payload's schema (#/components/schemas/...) and its property order. */
  fields: string[];
  /** The delivery per format (undefined when none came); JSON from a webhook registered without a format. */
  hits: Record<FormatName, Hit | undefined>;
  /** The media types the spec lists for the event's request body. */
  media: string[];
}

function specMedia(ctx: CheckContext, event: string): string[] {
  const post = ctx.contract.resolve(`#/webhooks/${event}/post`) as
    | { requestBody?: Parameters<CheckContext['contract']['deref']>[0] }
    | undefined;
  const rb = ctx.contract.deref(post?.requestBody) as { content?: Record<string, unknown> } | undefined;
  return Object.keys(rb?.content ?? {});
}

/** The spec's media type for a format name (JSON, XML, Form Data). */
function mediaFor(sample: FormatSample, f: FormatName): string | undefined {
  return sample.media.find((m) => FORMATS.find((x) => x.name === f)!.media.test(m));
}

/** One document event and one note event, each to a JSON (default), an XML and a Form Data webhook. Shared. */
function formatSamples(ctx: CheckContext): Promise<FormatSample[]> {
  return ctx.fixtures.shared('delivery-format-samples', () =>
    withProbe(ctx, ok200, async (probe, hook) => {
      const hooks = new Map<string, Hook>();
      for (const event of [DOC_EVENT, NOTE_EVENT])
        for (const f of FORMATS)
          hooks.set(
            `${event} ${f.name}`,
            await hook(event, `format-${f.name.replace(' ', '')}`, f.name === 'JSON' ? {} : { format: f.name }),
          );
      const doc = await upload(ctx);
      const note = await touchNote(ctx);
      const ids: Record<string, string> = { [DOC_EVENT]: doc.docId, [NOTE_EVENT]: String(note.id) };
      const all = () => [...hooks.entries()].every(([k, h]) => probe.on(h.path, ids[k.split(' ')[0]!]).length > 0);
      await awaitDoc(ctx, probe, doc, all);
      return [DOC_EVENT, NOTE_EVENT].map((event) => ({
        event,
        id: ids[event]!,
        fields: schemaFields(ctx, event === DOC_EVENT ? 'DocumentStatusChangedEvent' : 'NoteEvent'),
        media: specMedia(ctx, event),
        hits: Object.fromEntries(FORMATS.map((f) => [f.name, probe.on(hooks.get(`${event} ${f.name}`)!.path, ids[event])[0]])) as Record<
          FormatName,
          Hit | undefined
        >,
      }));
    }),
  );
}

/** The assumed XML layout: `<webhook xmlns:xsi=...>` with one child per field, text or xsi:nil. Null when it is not. */
function xmlFields(text: string): { fields: Array<[string, string | null]> } | { why: string } {
  try {
    const { fields, rootAttributes } = decodeXmlFields(text);
    if (rootAttributes['xmlns:xsi'] !== XSI_NAMESPACE)
      return { why: `root element <webhook> does not declare xmlns:xsi="${XSI_NAMESPACE}"` };
    return { fields };
  } catch (e) {
    return { why: (e as Error).message };
  }
}

/**
 * The layout checks' common part: each sample delivered both as JSON and as `f` (a failure where either is missing),
 * the `f` delivery's Content-Type `media`, then `judge` with the JSON payload and the `f` delivery.
 */
async function eachLayout(
  ctx: CheckContext,
  f: 'XML' | 'Form Data',
  media: string,
  judge: (s: FormatSample, json: Obj, hit: Hit) => void,
): Promise<void> {
  for (const s of await formatSamples(ctx)) {
    const json = s.hits.JSON && parse(s.hits.JSON.body);
    const hit = s.hits[f];
    if (
      !ctx.expect(!!json && !!hit, {
        expected: `the ${s.event} delivered as JSON and as ${f}`,
        actual: `${json ? 'JSON' : 'no JSON'}, ${hit ? f : `no ${f}`}`,
      })
    )
      continue;
    ctx.expect(mediaType(hit!) === media, {
      expected: `${s.event} as ${f}: Content-Type ${media}`,
      actual: String(hit!.headers['content-type']),
    });
    judge(s, json!, hit!);
  }
}

/** The payload's fields in schema order, as the JSON delivery has them. */
function expectedPairs(sample: FormatSample, json: Obj): Array<[string, unknown]> {
  return sample.fields.filter((f) => f in json).map((f) => [f, json[f]] as [string, unknown]);
}

export async function webhook_format_encoding(ctx: CheckContext): Promise<void> {
  for (const s of await formatSamples(ctx)) {
    for (const f of FORMATS) {
      const hit = s.hits[f.name];
      const media = mediaFor(s, f.name);
      const label = `${s.event} to a webhook of format ${f.name}${f.name === 'JSON' ? ' (registered without a format: the default)' : ''}`;
      if (!ctx.expect(!!hit, { expected: `a delivery of ${label}`, actual: 'none' })) continue;
      ctx.expect(!!media && mediaType(hit!) === media, {
        expected: `${label}: Content-Type ${media ?? `(the spec lists none of ${f.name})`}`,
        actual: String(hit!.headers['content-type']),
      });
      let decoded = false;
      if (f.name === 'JSON') decoded = parse(hit!.body)?.event === s.event && Object.values(parse(hit!.body) ?? {}).includes(s.id);
      // The XML and Form Data layouts are the kit's assumption (EVT-043, EVT-044): here only the encoding.
      if (f.name === 'XML')
        decoded =
          /^\uFEFF?\s*(<\?xml[^?]*\?>\s*)?<[A-Za-z_][\s\S]*>\s*$/.test(hit!.body) &&
          hit!.body.includes(s.id) &&
          hit!.body.includes(s.event);
      if (f.name === 'Form Data') {
        const values = [...new URLSearchParams(hit!.body).values()];
        decoded = !parse(hit!.body) && values.includes(s.id) && values.includes(s.event);
      }
      ctx.expect(decoded, {
        expected: `${label}: the body encoded as ${f.name}, naming ${s.event} and ${s.id}`,
        actual: hit!.body.slice(0, 300),
      });
    }
  }
}

export async function xml_delivery_layout(ctx: CheckContext): Promise<void> {
  await eachLayout(ctx, 'XML', 'application/xml', (s, json, xml) => {
    const parsed = xmlFields(xml.body);
    if (
      !ctx.expect('fields' in parsed, {
        expected: `${s.event} as XML: <webhook xmlns:xsi="..."> with one child element per field`,
        actual: `${'why' in parsed ? parsed.why : ''} in ${xml.body.slice(0, 300)}`,
      })
    )
      return;
    const want = expectedPairs(s, json).map(([k, v]) => [k, v === null ? null : String(v)] as [string, string | null]);
    const show = (fs: Array<[string, string | null]>) =>
      fs.map(([k, v]) => (v === null ? `<${k} xsi:nil="true"/>` : `<${k}>${v}</${k}>`)).join('');
    ctx.expect(JSON.stringify((parsed as { fields: Array<[string, string | null]> }).fields) === JSON.stringify(want), {
      expected: `${s.event} as XML: the JSON payload's fields in schema order, values as text, null as xsi:nil: ${show(want)}`,
      actual: show((parsed as { fields: Array<[string, string | null]> }).fields),
    });
  });
}

export async function form_data_delivery_layout(ctx: CheckContext): Promise<void> {
  await eachLayout(ctx, 'Form Data', 'application/x-www-form-urlencoded', (s, json, form) => {
    const pairs = [...new URLSearchParams(form.body).entries()];
    const want = expectedPairs(s, json).map(([k, v]) => [k, v === null ? '' : String(v)]);
    ctx.expect(JSON.stringify(pairs) === JSON.stringify(want), {
      expected: `${s.event} as Form Data: the JSON payload's fields in schema order, null as an empty value: ${new URLSearchParams(want).toString()}`,
      actual: form.body.slice(0, 500),
    });
  });
}

export const checks: CheckDef[] = [
  check(webhook_format_encoding, { rule: 'EVT-028', needs: { mock: true, write: true }, exclusive: true, waits: ['extraction'] }),
  check(xml_delivery_layout, {
    rule: 'EVT-043',
    provenance: 'assumed',
    needs: { mock: true, write: true },
    exclusive: true,
    waits: ['extraction'],
  }),
  check(form_data_delivery_layout, {
    rule: 'EVT-044',
    provenance: 'assumed',
    needs: { mock: true, write: true },
    exclusive: true,
    waits: ['extraction'],
  }),
];
