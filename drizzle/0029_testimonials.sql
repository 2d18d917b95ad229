-- Testimonials for the public pages: a person's words, name and role, shown only once that person
-- (their parent or guardian when they are under 18) has agreed through a link e-mailed to them.
-- Only the link's SHA-256 is kept; what they agreed to is kept word for word with its hash, and a
-- withdrawal takes it off the site at once (the trigger clears every instance's page cache).
CREATE TABLE "testimonials" (
	"id" serial PRIMARY KEY NOT NULL,
	"quote" text NOT NULL,
	"name" text NOT NULL,
	"role" text NOT NULL,
	"photo_id" integer,
	"email" text NOT NULL,
	"about_minor" boolean DEFAULT false NOT NULL,
	"status" text DEFAULT 'waiting' NOT NULL,
	"token_hash" text,
	"expires_at" timestamp with time zone NOT NULL,
	"sent_at" timestamp with time zone NOT NULL,
	"sends_that_day" integer DEFAULT 1 NOT NULL,
	"agreed_at" timestamp with time zone,
	"agreed_text" text,
	"text_version" text,
	"declined_at" timestamp with time zone,
	"withdrawn_at" timestamp with time zone,
	"withdrawn_by" text,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "testimonials_status" CHECK ("testimonials"."status" IN ('waiting', 'agreed', 'declined', 'withdrawn', 'expired')),
	CONSTRAINT "testimonials_withdrawn_by" CHECK ("testimonials"."withdrawn_by" IS NULL OR "testimonials"."withdrawn_by" IN ('person', 'staff')),
	CONSTRAINT "testimonials_lengths" CHECK (char_length("testimonials"."quote") BETWEEN 1 AND 600 AND char_length("testimonials"."role") BETWEEN 1 AND 80),
	CONSTRAINT "testimonials_agreement" CHECK ("testimonials"."status" <> 'agreed' OR ("testimonials"."agreed_at" IS NOT NULL AND "testimonials"."agreed_text" IS NOT NULL AND "testimonials"."text_version" IS NOT NULL))
);
--> statement-breakpoint
ALTER TABLE "testimonials" ADD CONSTRAINT "testimonials_photo_id_media_items_id_fk" FOREIGN KEY ("photo_id") REFERENCES "public"."media_items"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "testimonials" ADD CONSTRAINT "testimonials_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "testimonials_token_hash_unique" ON "testimonials" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "testimonials_shown" ON "testimonials" USING btree ("agreed_at") WHERE "testimonials"."status" = 'agreed';--> statement-breakpoint
CREATE TRIGGER testimonials_changed AFTER INSERT OR UPDATE OR DELETE ON testimonials
  FOR EACH STATEMENT EXECUTE FUNCTION notify_site_content_changed();
