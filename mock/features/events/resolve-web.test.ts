// The destination check in a page, where no DNS answers: a name is taken as a public host (https only), localhost
// names are loopback (refused unless private receivers are allowed), IP literals are classified as everywhere.
import { expect, it } from 'vitest';
import { checkDestination } from './destination.ts';
import { pageResolver } from './resolve-web.ts';

const check = (url: string, allowPrivate = false) => checkDestination(url, { allowPrivate, resolve: pageResolver });

it('takes names as public hosts, localhost as loopback, and classifies literals', async () => {
  expect(await check('https://receiver.example.test/hooks')).toMatchObject({ ok: true });
  expect(await check('http://receiver.example.test/hooks', true)).toMatchObject({
    ok: false,
    reason: expect.stringMatching(/must use https for public hosts/),
  });
  expect(await check('http://localhost:4020/hooks')).toMatchObject({ ok: false });
  expect(await check('http://localhost:4020/hooks', true)).toMatchObject({ ok: true });
  expect(await check('https://169.254.169.254/x', true)).toMatchObject({ ok: false, reason: expect.stringMatching(/cloud metadata/) });
});
