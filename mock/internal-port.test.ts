// Every port the mock opens can be set (issue 42, item 6): the second, internal loopback port (default mode's engine
// behind Prism, --static's Prism) is --internal-port / startMock({ internalPort }); it listens on 127.0.0.1 only, and
// the flag is refused where no second port exists (engine-only, --upstream) or where it would take --port's.
import { createServer } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { parseFlags, UsageError } from './cli.ts';
import { type MockMode, type RunningMock, startMock } from './server.ts';

/** A port free a moment ago (another process may take it first: the test then fails with EADDRINUSE, not falsely passes). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject).listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** Whether something accepts a connection on 127.0.0.1:port. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer().listen(port, '127.0.0.1');
    probe.once('listening', () => probe.close(() => resolve(false)));
    probe.once('error', () => resolve(true));
  });
}

describe('--internal-port', () => {
  it('parses, and refuses what cannot work', () => {
    expect(parseFlags(['--internal-port', '4011']).internalPort).toBe(4011);
    expect(parseFlags(['--static', '--internal-port', '0']).internalPort).toBe(0);
    for (const [argv, message] of [
      [['--internal-port', 'x'], /--internal-port must be an integer from 0 to 65535/],
      [['--internal-port', '70000'], /--internal-port must be an integer/],
      [['--engine-only', '--internal-port', '4011'], /--engine-only opens one port only/],
      [['--upstream', 'http://127.0.0.1:9/ext-api/v1', '--internal-port', '4011'], /--upstream opens one port only/],
      [['--internal-port', '4010'], /must differ from --port/],
      [['--port', '5000', '--internal-port', '5000'], /must differ from --port/],
    ] as const) {
      expect(() => parseFlags([...argv]), argv.join(' ')).toThrow(UsageError);
      expect(() => parseFlags([...argv])).toThrow(message);
    }
  });

  const running: RunningMock[] = [];
  afterAll(async () => {
    for (const m of running) await m.close();
  });

  it.each<MockMode>(['default', 'static'])('%s mode opens its second port where it is told', async (mode) => {
    const internalPort = await freePort();
    const m = await startMock({ port: 0, mode, quiet: true, internalPort });
    running.push(m);
    expect(await listening(internalPort)).toBe(true);
    const key = m.keys.find((k) => k.label === 'all')!.key;
    expect((await fetch(`${m.url}/providers`, { headers: { 'x-api-key': key } })).status).toBe(200);
    expect((await fetch(`${m.controlUrl}/health`)).status).toBe(200);
  });
});
