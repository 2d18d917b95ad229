/** What an analysis file may be, shared by the server's checks and the staff page's fields. */

/** A clip may be as long as a whole race filmed in high definition. */
export const CLIP_MAX_BYTES = 2 * 1024 * 1024 * 1024
export const POSTER_MAX_BYTES = 5 * 1024 * 1024
export const CLIP_TITLE_MAX = 120
