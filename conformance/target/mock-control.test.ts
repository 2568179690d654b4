// The mock's second: GET /__mock/health says the mock's --time-scale, and the control client turns it into the
// real length of one service second, so webhook timing checks judge against it rather than a late timer's gap.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../mock/server.ts';
import { MockControl } from './mock-control.ts';

let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock({ port: 0, host: '127.0.0.1', timeScale: 0.02, mode: 'engine-only', quiet: true });
}, 60_000);
afterAll(async () => {
  await mock?.close();
});

describe('the mock second', () => {
  it('health carries time_scale, and the control client and its scoped views know the second from it', async () => {
    const body = await (await fetch(`${mock.controlUrl}/health`)).json();
    expect(body).toEqual({ status: 'ok', mode: 'engine-only', time_scale: 0.02 });
    const control = new MockControl(mock.url, 5_000);
    expect(control.secondMs).toBeUndefined();
    expect(await control.health()).toBe(true);
    expect(control.secondMs).toBeCloseTo(20);
    expect(control.withScope('s', () => {}).secondMs).toBeCloseTo(20);
  });

  it('a health answer without a usable time_scale leaves the second to be measured', async () => {
    const control = new MockControl('http://127.0.0.1:1/ext-api/v1', 1_000);
    expect(await control.health()).toBe(false);
    expect(control.secondMs).toBeUndefined();
  });
});
