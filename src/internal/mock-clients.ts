// Which clients call the mock (`partner-payments/testing`): an error's advice differs there (a
// payment stays pending until the test moves it, where the service's would go to support).
// A WeakSet, not a field: nothing of it shows on the public client, and a client it holds can go.

/** The clients built with the mock's credentials (`mock.clientOptions()`: client ids `mock-...`). */
export const mockClients = new WeakSet<object>();

/** Whether a client id is one the mock issues (its fixtures and `mock.addClient()`). */
export const isMockClientId = (clientId: string | undefined): boolean =>
  clientId?.startsWith('mock-') === true;
