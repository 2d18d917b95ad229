import { isIPv4, isIPv6 } from 'node:net'

/**
 * The network a client address belongs to, as limits count it: an IPv4 address as it is, an IPv6
 * address by its /64 (one household or phone is given a whole /64, so counting single IPv6
 * addresses would let one visitor be millions of clients). Anything else is kept as given.
 */
export function clientNetwork(ip: string): string {
  const address = ip.startsWith('::ffff:') && isIPv4(ip.slice(7)) ? ip.slice(7) : ip
  if (!isIPv6(address)) return address
  return `${expandIPv6(address).slice(0, 4).join(':')}::/64`
}

/** The eight groups of an IPv6 address, without leading zeros (`2001:db8::1` → 2001, db8, 0, …, 1). */
function expandIPv6(address: string): string[] {
  const [head = '', tail = ''] = address.split('%')[0]!.split('::') as [string, string?]
  const groups = (part: string) => (part ? part.split(':') : [])
  let front = groups(head)
  let back = address.includes('::') ? groups(tail) : []
  // An embedded IPv4 tail (::ffff:1.2.3.4 forms other than the mapped one) takes two groups.
  const last = (address.includes('::') ? back : front).at(-1)
  if (last && isIPv4(last)) {
    const [a, b, c, d] = last.split('.').map(Number) as [number, number, number, number]
    const words = [((a << 8) | b).toString(16), ((c << 8) | d).toString(16)]
    if (address.includes('::')) back = [...back.slice(0, -1), ...words]
    else front = [...front.slice(0, -1), ...words]
  }
  const middle = Array.from({ length: 8 - front.length - back.length }, () => '0')
  return [...front, ...middle, ...back].map((group) => (parseInt(group, 16) || 0).toString(16))
}
