// A clip's chapter marks as WebVTT, the format a video player reads its chapters track in.

/** Seconds as a WebVTT timestamp: 75.5 → 00:01:15.500. */
export const vttTimestamp = (seconds: number) => {
  const millis = Math.round(seconds * 1000)
  const hours = Math.floor(millis / 3_600_000)
  const minutes = Math.floor((millis % 3_600_000) / 60_000)
  const secs = Math.floor((millis % 60_000) / 1000)
  return `${String(hours).padStart(2, '0')}:${String(minutes).padStart(2, '0')}:${String(secs).padStart(2, '0')}.${String(millis % 1000).padStart(3, '0')}`
}

/**
 * Each chapter runs from its mark to the next one; the last to the end of the clip, which the lab
 * does not store, so it is given an hour (the player stops at the real end).
 */
export function chaptersVtt(chapters: Array<{ label: string; seconds: number }>, durationSeconds: number | null = null) {
  const cues = chapters.map((chapter, index) => {
    const end = chapters[index + 1]?.seconds ?? durationSeconds ?? chapter.seconds + 3600
    return `${index + 1}\n${vttTimestamp(chapter.seconds)} --> ${vttTimestamp(Math.max(end, chapter.seconds + 0.001))}\n${chapter.label}`
  })
  return ['WEBVTT', '', ...cues.flatMap((cue) => [cue, ''])].join('\n')
}
