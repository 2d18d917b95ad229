CREATE TABLE "analyses" (
	"id" serial PRIMARY KEY NOT NULL,
	"booking_id" integer NOT NULL,
	"swimmer_id" integer,
	"pool_length_metres" integer DEFAULT 25 NOT NULL,
	"summary" text DEFAULT '' NOT NULL,
	"published_at" timestamp with time zone,
	"next_analysis_on" date,
	"invited_back_at" timestamp with time zone,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "analysis_clips" (
	"id" serial PRIMARY KEY NOT NULL,
	"analysis_id" integer NOT NULL,
	"event_id" integer,
	"title" text NOT NULL,
	"angle" text NOT NULL,
	"chapters" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"storage_key" text NOT NULL,
	"content_type" text NOT NULL,
	"size_bytes" bigint NOT NULL,
	"poster_key" text,
	"poster_content_type" text,
	"position" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "analysis_events" (
	"id" serial PRIMARY KEY NOT NULL,
	"analysis_id" integer NOT NULL,
	"stroke" text NOT NULL,
	"distance_metres" integer NOT NULL,
	"position" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "analysis_findings" (
	"id" serial PRIMARY KEY NOT NULL,
	"analysis_id" integer NOT NULL,
	"title" text NOT NULL,
	"why_it_matters" text DEFAULT '' NOT NULL,
	"priority" text NOT NULL,
	"position" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "analysis_metrics" (
	"id" serial PRIMARY KEY NOT NULL,
	"event_id" integer NOT NULL,
	"metric_key" text NOT NULL,
	"label" text NOT NULL,
	"unit" text NOT NULL,
	"better_when" text NOT NULL,
	"value" double precision NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "analysis_metrics_better_when" CHECK ("analysis_metrics"."better_when" IN ('higher', 'lower'))
);
--> statement-breakpoint
CREATE TABLE "finding_drills" (
	"id" serial PRIMARY KEY NOT NULL,
	"finding_id" integer NOT NULL,
	"name" text NOT NULL,
	"instructions" text DEFAULT '' NOT NULL,
	"video_url" text,
	"position" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reference_bands" (
	"id" serial PRIMARY KEY NOT NULL,
	"stroke" text NOT NULL,
	"distance_metres" integer NOT NULL,
	"metric_key" text NOT NULL,
	"age_min" integer NOT NULL,
	"age_max" integer NOT NULL,
	"gender" text NOT NULL,
	"level" text NOT NULL,
	"value" double precision NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reference_bands_ages" CHECK ("reference_bands"."age_min" <= "reference_bands"."age_max")
);
--> statement-breakpoint
CREATE TABLE "share_links" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"swimmer_id" integer NOT NULL,
	"analysis_id" integer,
	"token_hash" text NOT NULL,
	"coach_email" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"last_opened_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "site_settings" ADD COLUMN "reanalysis_months" integer DEFAULT 3 NOT NULL;--> statement-breakpoint
ALTER TABLE "analyses" ADD CONSTRAINT "analyses_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analyses" ADD CONSTRAINT "analyses_swimmer_id_swimmers_id_fk" FOREIGN KEY ("swimmer_id") REFERENCES "public"."swimmers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analyses" ADD CONSTRAINT "analyses_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analysis_clips" ADD CONSTRAINT "analysis_clips_analysis_id_analyses_id_fk" FOREIGN KEY ("analysis_id") REFERENCES "public"."analyses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analysis_clips" ADD CONSTRAINT "analysis_clips_event_id_analysis_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."analysis_events"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analysis_events" ADD CONSTRAINT "analysis_events_analysis_id_analyses_id_fk" FOREIGN KEY ("analysis_id") REFERENCES "public"."analyses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analysis_findings" ADD CONSTRAINT "analysis_findings_analysis_id_analyses_id_fk" FOREIGN KEY ("analysis_id") REFERENCES "public"."analyses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analysis_metrics" ADD CONSTRAINT "analysis_metrics_event_id_analysis_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."analysis_events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "finding_drills" ADD CONSTRAINT "finding_drills_finding_id_analysis_findings_id_fk" FOREIGN KEY ("finding_id") REFERENCES "public"."analysis_findings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "share_links" ADD CONSTRAINT "share_links_account_id_users_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "share_links" ADD CONSTRAINT "share_links_swimmer_id_swimmers_id_fk" FOREIGN KEY ("swimmer_id") REFERENCES "public"."swimmers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "share_links" ADD CONSTRAINT "share_links_analysis_id_analyses_id_fk" FOREIGN KEY ("analysis_id") REFERENCES "public"."analyses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "analyses_booking_unique" ON "analyses" USING btree ("booking_id");--> statement-breakpoint
CREATE INDEX "analyses_swimmer" ON "analyses" USING btree ("swimmer_id");--> statement-breakpoint
CREATE INDEX "analyses_next" ON "analyses" USING btree ("next_analysis_on") WHERE "analyses"."invited_back_at" IS NULL;--> statement-breakpoint
CREATE INDEX "analysis_clips_analysis" ON "analysis_clips" USING btree ("analysis_id");--> statement-breakpoint
CREATE UNIQUE INDEX "analysis_clips_storage_key_unique" ON "analysis_clips" USING btree ("storage_key");--> statement-breakpoint
CREATE UNIQUE INDEX "analysis_events_unique" ON "analysis_events" USING btree ("analysis_id","stroke","distance_metres");--> statement-breakpoint
CREATE INDEX "analysis_findings_analysis" ON "analysis_findings" USING btree ("analysis_id");--> statement-breakpoint
CREATE UNIQUE INDEX "analysis_metrics_unique" ON "analysis_metrics" USING btree ("event_id","metric_key");--> statement-breakpoint
CREATE INDEX "finding_drills_finding" ON "finding_drills" USING btree ("finding_id");--> statement-breakpoint
CREATE UNIQUE INDEX "reference_bands_unique" ON "reference_bands" USING btree ("stroke","distance_metres","metric_key","age_min","age_max","gender","level");--> statement-breakpoint
CREATE UNIQUE INDEX "share_links_token_unique" ON "share_links" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "share_links_swimmer" ON "share_links" USING btree ("swimmer_id");