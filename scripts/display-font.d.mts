// The types of display-font.mjs, for the test that makes the font again.
export const FONT_FILE: string
export const CSS_FILE: string
export function displayFont(): Promise<{ woff2: Buffer; css: string }>
