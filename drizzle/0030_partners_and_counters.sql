-- Proof a parent can check, from the lab's own records. The home page shows how many swimmers the
-- lab has analysed, how many analyses it has delivered and how many camps it has run, counted from
-- the data, each only once it reaches the threshold staff set here (0: never shown). And the lab's
-- partners and venues, each with a logo from the media library (a partner logo, or a venue's photo)
-- and an optional link, in the order staff give them; the public pages read them, so a change is
-- announced like any change to what those pages show.
ALTER TABLE "site_settings" ADD COLUMN "swimmers_analysed_threshold" integer DEFAULT 50 NOT NULL;--> statement-breakpoint
ALTER TABLE "site_settings" ADD COLUMN "analyses_delivered_threshold" integer DEFAULT 50 NOT NULL;--> statement-breakpoint
ALTER TABLE "site_settings" ADD COLUMN "camps_run_threshold" integer DEFAULT 3 NOT NULL;--> statement-breakpoint
ALTER TABLE "site_settings" ADD CONSTRAINT "site_settings_figure_thresholds" CHECK ("site_settings"."swimmers_analysed_threshold" >= 0 AND "site_settings"."analyses_delivered_threshold" >= 0 AND "site_settings"."camps_run_threshold" >= 0);--> statement-breakpoint
CREATE TABLE "partners" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"link" text,
	"logo_id" integer,
	"position" integer NOT NULL,
	"shown" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "partners_kind" CHECK ("partners"."kind" IN ('partner', 'venue')),
	CONSTRAINT "partners_link" CHECK ("partners"."link" IS NULL OR "partners"."link" LIKE 'https://%')
);
--> statement-breakpoint
ALTER TABLE "partners" ADD CONSTRAINT "partners_logo_id_media_items_id_fk" FOREIGN KEY ("logo_id") REFERENCES "public"."media_items"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "partners_logo" ON "partners" USING btree ("logo_id");--> statement-breakpoint
CREATE INDEX "partners_position" ON "partners" USING btree ("position","id");--> statement-breakpoint
CREATE TRIGGER partners_changed AFTER INSERT OR UPDATE OR DELETE ON partners
  FOR EACH STATEMENT EXECUTE FUNCTION notify_site_content_changed();
