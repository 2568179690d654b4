// --static: Prism's plain mock (prism-http-server's createServer, as `prism mock` runs it), no engine, no state.
import { createServer } from '@stoplight/prism-http-server';
import { prismOperations } from './operations.ts';
import { prismLogger } from './silent-logger.ts';

export async function startStaticPrism(port: number, host: string): Promise<{ port: number; close(): Promise<void> }> {
  const server = createServer((await prismOperations()) as never, {
    cors: true,
    config: {
      isProxy: false,
      checkSecurity: true,
      validateRequest: true,
      validateResponse: true,
      errors: false,
      mock: { dynamic: false },
    } as never,
    components: { logger: prismLogger(false) as never },
  });
  const address = await server.listen(port, host);
  return { port: Number(new URL(address).port), close: () => server.close() };
}
