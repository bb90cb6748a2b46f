/**
 * The program text of one round trip through the mock's MSW handlers, for the tests that run the
 * built or bundled mock in a process of its own (tests/built-packages.test.ts,
 * tests/runtimes/bundled-node.runtimes.ts): statements for an async context in which
 * `createMockServer` and `setupServer` are in scope. They print one JSON line, `{ ...fields, health,
 * missing }`, which {@link MSW_ROUND_TRIP_ANSWER} is, past the extra fields.
 * @param fields extra members of the printed line, as expressions of the program (name → expression).
 */
export function mswRoundTrip(fields: Record<string, string> = {}): string {
  const extra = Object.entries(fields)
    .map(([name, expression]) => `${name}: ${expression}, `)
    .join('');
  return `
  const mock = createMockServer({ baseUrl: 'http://round-trip.test' });
  const server = setupServer(...mock.handlers);
  server.listen({ onUnhandledRequest: 'error' });
  const health = await fetch('http://round-trip.test/v2/health');
  const missing = await fetch('http://round-trip.test/v2/nowhere');
  server.close();
  console.log(JSON.stringify({ ${extra}health: health.status, missing: [missing.status, missing.statusText] }));
`;
}

/** What {@link mswRoundTrip} prints: the health check's 204, and a 404 with its reason phrase. */
export const MSW_ROUND_TRIP_ANSWER = { health: 204, missing: [404, 'Not Found'] } as const;
