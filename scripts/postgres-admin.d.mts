// The types of postgres-admin.mjs, for the test server.
export type AdminOptions = { connectionTimeoutMillis?: number }
export function runAsAdmin(adminUrl: string, statement: string, options?: AdminOptions): Promise<void>
export function createDatabase(adminUrl: string, name: string, options?: AdminOptions): Promise<{ url: string; drop: () => Promise<void> }>
