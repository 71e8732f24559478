// Whether a host is this machine: the one rule behind the SDK's "http only on loopback" checks
// (secure URLs, the mock's webhook deliveries and control server, the bins' loopback flags).

const LOOPBACK_NAMES = new Set(['localhost', '[::1]', '::1']);

/**
 * Whether a URL's host is a loopback address: 127.0.0.0/8, ::1 or localhost.
 *
 * Pass `new URL(...).hostname`: the WHATWG parser has already lowercased the name, written IPv4
 * in dotted decimal (`127.1` and `0x7f.0.0.1` become `127.0.0.1`) and refused octets above 255,
 * which is why four dotted numbers starting with 127 suffice here. `localhost.` and IPv4-mapped
 * IPv6 (`[::ffff:7f00:1]`) are not accepted.
 */
export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_NAMES.has(hostname) || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}
