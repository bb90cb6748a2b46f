/**
 * Only this example needs this: it waits until `count` sessions are open on the mock, so that each file
 * runs its test while the other files' sessions are open too, showing that they do not see each other.
 * Your own files need nothing like it.
 */
import { connect } from '@iacm/mock-server/remote';

export async function allAtOnce(url: string, count: number): Promise<void> {
  const root = connect(url);
  for (let round = 0; round < 400; round += 1) {
    if ((await root.sessions()).length >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const open = (await root.sessions()).length;
  throw new Error(
    `only ${open} of ${count} sessions opened in 20 s: do the files run in parallel (maxWorkers)?`,
  );
}
