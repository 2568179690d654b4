import type { CheckContext } from '../../run/model.ts';
import type { Operation } from '../../../spec/runtime/contract.ts';
import type { Exchange } from '../../../judge/define.ts';
import { uploadLimits } from './common.ts';
import { jsonWrites } from './operations.ts';

/** One request per JSON write with a body past the largest body the document mentions (the upload's x-max-bytes). */
export function oversizedJson(ctx: CheckContext) {
  return ctx.fixtures.shared('oversized-json', async () => {
    const limit = uploadLimits(ctx).maxBytes;
    if (limit === undefined) ctx.skip('the spec gives no body size (x-max-bytes) to go past');
    const { targets } = await jsonWrites(ctx);
    const out: Array<{ op: Operation; path: string; size: number; ex: Exchange }> = [];
    for (const t of targets) {
      // The padding is an unknown field, so a server without a size limit refuses the body (400) rather than
      // storing it: the check still fails, and nothing is written.
      const text = JSON.stringify({ ...t.body(), crc_padding: 'x'.repeat(limit! + 1) });
      const ex = await ctx.send({ method: t.op.method, path: t.path, key: ctx.keys.main, bodyText: text });
      out.push({ op: t.op, path: t.path, size: text.length, ex });
    }
    return out;
  });
}
