-- A sample analysis for the public "see what you get" page: a frozen copy of what a results page
-- shows (figures with the reference levels as they were, findings and drills as written), kept
-- apart from any family's analysis. It holds no name, date of birth, booking or analysis of the
-- family's, so editing or erasing theirs never reaches it. At most one is published at a time; the
-- public pages read it, so a change is announced like any change to what they show.
CREATE TABLE "sample_analyses" (
	"id" serial PRIMARY KEY NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"source" text NOT NULL,
	"swimmer_description" text NOT NULL,
	"summary" text DEFAULT '' NOT NULL,
	"pool_length_metres" integer NOT NULL,
	"events" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"findings" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"agreement_note" text DEFAULT '' NOT NULL,
	"created_by" integer,
	"created_by_email" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"published_at" timestamp with time zone,
	CONSTRAINT "sample_analyses_status" CHECK ("sample_analyses"."status" IN ('draft', 'published', 'withdrawn')),
	CONSTRAINT "sample_analyses_source" CHECK ("sample_analyses"."source" IN ('family_shared', 'lab_recorded')),
	CONSTRAINT "sample_analyses_agreement" CHECK ("sample_analyses"."source" <> 'family_shared' OR length(trim("sample_analyses"."agreement_note")) > 0)
);
--> statement-breakpoint
ALTER TABLE "sample_analyses" ADD CONSTRAINT "sample_analyses_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "sample_analyses_one_published" ON "sample_analyses" USING btree ("status") WHERE "sample_analyses"."status" = 'published';--> statement-breakpoint
CREATE TRIGGER sample_analyses_changed AFTER INSERT OR UPDATE OR DELETE ON sample_analyses
  FOR EACH STATEMENT EXECUTE FUNCTION notify_site_content_changed();
