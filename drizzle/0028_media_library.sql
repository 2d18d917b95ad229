-- The lab's own photographs and video loops for the public pages. The upload stays private; the
-- background pipeline writes the public files (variants) and marks the item ready. A change to an
-- item (its alt text, its files) is announced like any change to what the public pages show.
CREATE TABLE "media_items" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"collection" text NOT NULL,
	"title" text NOT NULL,
	"alt_text" text DEFAULT '' NOT NULL,
	"decorative" boolean DEFAULT false NOT NULL,
	"status" text DEFAULT 'processing' NOT NULL,
	"failure" text,
	"original_key" text NOT NULL,
	"original_type" text NOT NULL,
	"original_bytes" integer NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"variants" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"placeholder" text,
	"poster_id" integer,
	"duration_ms" integer,
	"has_sound" boolean,
	"claimed_until" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"uploaded_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"processed_at" timestamp with time zone,
	CONSTRAINT "media_items_kind" CHECK ("media_items"."kind" IN ('image', 'video')),
	CONSTRAINT "media_items_status" CHECK ("media_items"."status" IN ('processing', 'ready', 'failed')),
	CONSTRAINT "media_items_size" CHECK ("media_items"."width" > 0 AND "media_items"."height" > 0 AND "media_items"."original_bytes" > 0)
);
--> statement-breakpoint
ALTER TABLE "media_items" ADD CONSTRAINT "media_items_poster_id_media_items_id_fk" FOREIGN KEY ("poster_id") REFERENCES "public"."media_items"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "media_items" ADD CONSTRAINT "media_items_uploaded_by_users_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "media_items_pending" ON "media_items" USING btree ("created_at") WHERE "media_items"."status" = 'processing';--> statement-breakpoint
CREATE UNIQUE INDEX "media_items_original_key_unique" ON "media_items" USING btree ("original_key");--> statement-breakpoint
CREATE TRIGGER media_items_changed AFTER INSERT OR UPDATE OR DELETE ON media_items
  FOR EACH STATEMENT EXECUTE FUNCTION notify_site_content_changed();
