// Node only: reads an upload given as a file path. Reached only through the `node` entry (client/node.ts), so the
// browser build of the client never sees node:fs or node:path.
import { readFile, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { UploadRejectedError } from './errors.ts';
import type { PathReader } from './upload.ts';

export const readPathFile: PathReader = async (file, maxBytes, tooLarge) => {
  const info = await stat(file).catch((e: Error) => {
    throw new UploadRejectedError('unreadable', `cannot read ${file}: ${e.message}`);
  });
  if (!info.isFile()) throw new UploadRejectedError('unreadable', `${file} is not a file`);
  if (info.size > maxBytes) throw tooLarge(info.size);
  return { bytes: new Uint8Array(await readFile(file)), name: basename(file) };
};
