/**
 * The error a promise rejects with; fails the test when it resolves instead. Lets a test assert
 * several fields of one error (`expect(await caught(p)).toMatchObject(...)`).
 */
export async function caught(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail, but it succeeded');
}
