-- The photos and the video loop staff choose for places on the public pages (the home page's hero
-- for wide screens and for phones, its loop, the sections beside the services, the about page's
-- story and location), by media library id. The site settings' row already announces its changes
-- to the pages.
ALTER TABLE "site_settings" ADD COLUMN "page_pictures" jsonb DEFAULT '{}'::jsonb NOT NULL;
