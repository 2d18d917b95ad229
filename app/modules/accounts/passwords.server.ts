import { hash, verify, type Algorithm } from '@node-rs/argon2'

/** argon2id with OWASP's recommended minimum (19 MiB, 2 passes); the parameters live in each hash. */
const ARGON2ID_OPTIONS = { algorithm: 2 as Algorithm.Argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 }

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2ID_OPTIONS)
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password)
  } catch {
    return false
  }
}

let decoyHash: Promise<string> | undefined

/** The hash an unknown address is checked against: made once, with the parameters of every real hash. */
export function decoyPasswordHash(): Promise<string> {
  decoyHash ??= hashPassword('decoy password that no account has')
  return decoyHash
}

/**
 * Spends the same time as checking a real password, for an address with no account, so the time a
 * sign-in takes does not tell whether the address is registered.
 */
export async function verifyAgainstDecoy(password: string): Promise<false> {
  await verifyPassword(await decoyPasswordHash(), password)
  return false
}
