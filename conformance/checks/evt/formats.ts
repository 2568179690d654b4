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
import type { CheckContext, CheckDef } from '../../run/model.ts';
import type { Obj } from '../support/common.ts';
import { check } from '../support/define.ts';
import { decodeXmlFields, XSI_NAMESPACE } from '../../../spec/runtime/webhook-codec.ts';
import { readPayload } from '../../target/delivery-payload.ts';

const mediaType = (h: Hit) =>
  String(h.headers['content-type'] ?? '')
    .split(';')[0]!
    .trim()
    .toLowerCase();

// ----- formats: one event of each kind delivered as JSON (the default), XML and Form Data -----

// The media types a format may be sent as: the document names the formats, not their media types, so any of the
// format's own (application/json or +json; application/xml, text/xml or +xml; urlencoded or multipart form data).
const FORMATS = [
  { name: 'JSON', media: /^application\/(json|[\w.-]+\+json)$/ },
  { name: 'XML', media: /^(application|text)\/(xml|[\w.-]+\+xml)$/ },
  { name: 'Form Data', media: /^(application\/x-www-form-urlencoded|multipart\/form-data)$/ },
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
  /** The words the Content-Type demand rests on (the layout checks: the kit's media type). */
  o: { says: string },
): Promise<void> {
  for (const s of await formatSamples(ctx)) {
    const json = s.hits.JSON && parse(s.hits.JSON.body);
    const hit = s.hits[f];
    if (
      !ctx.expect(!!json && !!hit, {
        expected: `the ${s.event} delivered as JSON and as ${f}`,
        actual: `${json ? 'JSON' : 'no JSON'}, ${hit ? f : `no ${f}`}`,
        says: 'format (JSON default, XML, Form Data)',
      })
    )
      continue;
    ctx.expect(mediaType(hit!) === media, {
      expected: `${s.event} as ${f}: Content-Type ${media}`,
      actual: String(hit!.headers['content-type']),
      says: o.says,
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
      const label = `${s.event} to a webhook of format ${f.name}${f.name === 'JSON' ? ' (registered without a format: the default)' : ''}`;
      if (!ctx.expect(!!hit, { expected: `a delivery of ${label}`, actual: 'none', says: 'format (JSON default, XML, Form Data)' }))
        continue;
      // The exact media type and the XML and Form Data layouts are the kit's (EVT-043, EVT-044): here a media type of
      // the format, and a body that reads as the format in any reasonable layout (conformance/target/delivery-payload.ts).
      const type = String(hit!.headers['content-type'] ?? '');
      ctx.expect(f.media.test(mediaType(hit!)), {
        expected: `${label}: a Content-Type of ${f.name} (${f.media.source})`,
        actual: type,
        says: ['body encoded in the configured format', 'format (JSON default, XML, Form Data)'],
      });
      const read = readPayload(hit!.body, type);
      const decoded = read.format === f.name && read.payload?.event === s.event && Object.values(read.payload).includes(s.id);
      ctx.expect(decoded, {
        expected: `${label}: the body encoded as ${f.name}, naming ${s.event} and ${s.id}`,
        actual: `${hit!.body.slice(0, 300)}${read.error ? ` (${read.error})` : ''}`,
        says: ['body encoded in the configured format', 'format (JSON default, XML, Form Data)'],
      });
    }
  }
}

export async function xml_delivery_layout(ctx: CheckContext): Promise<void> {
  await eachLayout(
    ctx,
    'XML',
    'application/xml',
    (s, json, xml) => {
      const parsed = xmlFields(xml.body);
      if (
        !ctx.expect('fields' in parsed, {
          expected: `${s.event} as XML: <webhook xmlns:xsi="..."> with one child element per field`,
          actual: `${'why' in parsed ? parsed.why : ''} in ${xml.body.slice(0, 300)}`,
          says: 'kit: <webhook xmlns:xsi="..."> with one child element per field (the field layout of XML deliveries is not shown)',
        })
      )
        return;
      const want = expectedPairs(s, json).map(([k, v]) => [k, v === null ? null : String(v)] as [string, string | null]);
      const show = (fs: Array<[string, string | null]>) =>
        fs.map(([k, v]) => (v === null ? `<${k} xsi:nil="true"/>` : `<${k}>${v}</${k}>`)).join('');
      ctx.expect(JSON.stringify((parsed as { fields: Array<[string, string | null]> }).fields) === JSON.stringify(want), {
        expected: `${s.event} as XML: the JSON payload's fields in schema order, values as text, null as xsi:nil: ${show(want)}`,
        actual: show((parsed as { fields: Array<[string, string | null]> }).fields),
        says: 'kit: the fields in schema order, values as text, null as xsi:nil (the field layout of XML deliveries is not shown)',
      });
    },
    { says: 'kit: an XML delivery is application/xml (the media type of XML deliveries is not shown)' },
  );
}

export async function form_data_delivery_layout(ctx: CheckContext): Promise<void> {
  await eachLayout(
    ctx,
    'Form Data',
    'application/x-www-form-urlencoded',
    (s, json, form) => {
      const pairs = [...new URLSearchParams(form.body).entries()];
      const want = expectedPairs(s, json).map(([k, v]) => [k, v === null ? '' : String(v)]);
      ctx.expect(JSON.stringify(pairs) === JSON.stringify(want), {
        expected: `${s.event} as Form Data: the JSON payload's fields in schema order, null as an empty value: ${new URLSearchParams(want).toString()}`,
        actual: form.body.slice(0, 500),
        says: 'kit: one name=value pair per field in schema order, null as an empty value (the field layout of Form Data deliveries is not shown)',
      });
    },
    { says: 'kit: a Form Data delivery is application/x-www-form-urlencoded (the media type of Form Data deliveries is not shown)' },
  );
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
