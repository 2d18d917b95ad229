-- A clip's poster is kept twice: the WebP of poster_key for every browser, and the same picture as
-- AVIF (about half the bytes, the first thing a phone loads on the results page) for the browsers
-- that take it. Posters set before have no AVIF and go on being served as WebP.
ALTER TABLE "analysis_clips" ADD COLUMN "poster_avif_key" text;
