/** What both client programs share: their settings, a check that throws, and the closing report. */

/** An environment variable the runner sets. */
export function env(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set (tests/openapi-clients/run.ts sets it)`);
  return value;
}

/** Throws `message` unless `condition` holds (and narrows like an assertion). */
export function check(condition: boolean, message: string): asserts condition {
  if (!condition) throw new Error(`failed: ${message}`);
}

/** A guardrail scope over everything: each member with `include` and `exclude`. */
export const scope = {
  workspaces: { include: ['*'], exclude: [] as string[] },
  repositories: { include: ['*'], exclude: [] as string[] },
  branches: { include: ['*'], exclude: [] as string[] },
  labels: { include: ['*'], exclude: [] as string[] },
};

/**
 * Prints the program's report as the last line of its output, one JSON object the runner reads:
 * the operations it called and the answers it saw (`METHOD /path/template status`).
 */
export function finish(client: string, operations: readonly string[], answered: readonly string[]): void {
  process.stdout.write(`${JSON.stringify({ client, operations, answered })}\n`);
}

/** What both clients answer a call with: the data on success, the error otherwise. */
interface Result<T> {
  data?: T | undefined;
  error?: unknown;
  response?: Response | undefined;
}

/** The data of a successful call; else throws with the status and the error (cut to 600 characters). */
export function dataOf<T>(result: Result<T>, label: string): T {
  if (result.data !== undefined) return result.data;
  const error = result.error instanceof Error ? result.error.message : JSON.stringify(result.error);
  throw new Error(`${label}: status ${result.response?.status}, error ${String(error).slice(0, 600)}`);
}
