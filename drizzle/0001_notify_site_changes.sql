-- Every change to what the public pages show is announced on one channel, so open pages (the
-- banner) and every instance's page cache learn of it within moments, however the row was changed.
CREATE OR REPLACE FUNCTION notify_site_content_changed() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('site_content_changed', TG_TABLE_NAME);
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER site_settings_changed AFTER INSERT OR UPDATE OR DELETE ON site_settings
  FOR EACH STATEMENT EXECUTE FUNCTION notify_site_content_changed();
--> statement-breakpoint
CREATE TRIGGER catalogue_items_changed AFTER INSERT OR UPDATE OR DELETE ON catalogue_items
  FOR EACH STATEMENT EXECUTE FUNCTION notify_site_content_changed();
--> statement-breakpoint
CREATE TRIGGER camps_changed AFTER INSERT OR UPDATE OR DELETE ON camps
  FOR EACH STATEMENT EXECUTE FUNCTION notify_site_content_changed();
--> statement-breakpoint
CREATE TRIGGER camp_batches_changed AFTER INSERT OR UPDATE OR DELETE ON camp_batches
  FOR EACH STATEMENT EXECUTE FUNCTION notify_site_content_changed();
