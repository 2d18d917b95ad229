// The types of check-imports.mjs, for the test that runs it.
export type ImportEdge = { from: string; to: string; typeOnly: boolean }
export type LayerRule = { from: string; to: string[]; why: string }
export const LAYER_RULES: LayerRule[]
export function importEdges(): ImportEdge[]
export function layerViolations(edges: ImportEdge[]): string[]
export function moduleGraph(edges: ImportEdge[]): Map<string, Map<string, ImportEdge[]>>
export function cycleViolations(graph: Map<string, Map<string, ImportEdge[]>>): string[]
