import { describe, expect, it } from 'vitest'
import { clientNetwork } from './client-network'

describe('the network a client is counted by', () => {
  it('keeps an IPv4 address, also when written as IPv4-mapped IPv6', () => {
    expect(clientNetwork('203.0.113.7')).toBe('203.0.113.7')
    expect(clientNetwork('::ffff:203.0.113.7')).toBe('203.0.113.7')
  })

  it('counts every address of one IPv6 /64 as one network, however it is written', () => {
    const network = clientNetwork('2001:db8:1:2::1')
    expect(network).toBe('2001:db8:1:2::/64')
    expect(clientNetwork('2001:0db8:0001:0002:ffff:eeee:dddd:cccc')).toBe(network)
    expect(clientNetwork('2001:DB8:1:2:0:0:0:9%eth0')).toBe(network)
    expect(clientNetwork('2001:db8:1:3::1')).not.toBe(network)
    expect(clientNetwork('::1')).toBe('0:0:0:0::/64')
  })

  it('keeps anything else as it is', () => {
    expect(clientNetwork('unknown')).toBe('unknown')
  })
})
