CREATE TABLE "camp_batches" (
	"id" serial PRIMARY KEY NOT NULL,
	"camp_id" integer NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"time_ranges" jsonb NOT NULL,
	"capacity" integer NOT NULL,
	"seats_taken" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "camp_batches_capacity" CHECK ("camp_batches"."seats_taken" >= 0 AND "camp_batches"."seats_taken" <= "camp_batches"."capacity")
);
--> statement-breakpoint
CREATE TABLE "camps" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"starts_on" date NOT NULL,
	"ends_on" date NOT NULL,
	"venue" text NOT NULL,
	"early_bird_price_paise" integer NOT NULL,
	"regular_price_paise" integer NOT NULL,
	"early_bird_ends_at" timestamp with time zone NOT NULL,
	"is_open" boolean DEFAULT true NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "camps_dates_ordered" CHECK ("camps"."ends_on" >= "camps"."starts_on"),
	CONSTRAINT "camps_prices" CHECK ("camps"."early_bird_price_paise" > 0 AND "camps"."regular_price_paise" >= "camps"."early_bird_price_paise")
);
--> statement-breakpoint
CREATE TABLE "catalogue_items" (
	"code" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"tagline" text DEFAULT '' NOT NULL,
	"price_paise" integer NOT NULL,
	"regular_price_paise" integer,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "catalogue_price_positive" CHECK ("catalogue_items"."price_paise" >= 0),
	CONSTRAINT "catalogue_regular_price" CHECK ("catalogue_items"."regular_price_paise" IS NULL OR "catalogue_items"."regular_price_paise" >= "catalogue_items"."price_paise")
);
--> statement-breakpoint
CREATE TABLE "site_settings" (
	"id" integer PRIMARY KEY NOT NULL,
	"banner_visible" boolean DEFAULT false NOT NULL,
	"report_delivery" text NOT NULL,
	"refund_policy" text NOT NULL,
	"session_location" text NOT NULL,
	"venue_name" text NOT NULL,
	"postal_address" text NOT NULL,
	"phone" text NOT NULL,
	"phone_hours" text NOT NULL,
	"support_email" text NOT NULL,
	"info_email" text NOT NULL,
	"website_url" text NOT NULL,
	"whatsapp_number" text NOT NULL,
	"social_links" jsonb NOT NULL,
	"coach" jsonb NOT NULL,
	"team" jsonb NOT NULL,
	"legal_name" text NOT NULL,
	"gstin" text DEFAULT '' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "site_settings_single_row" CHECK ("site_settings"."id" = 1)
);
--> statement-breakpoint
CREATE TABLE "slots" (
	"id" serial PRIMARY KEY NOT NULL,
	"date" date NOT NULL,
	"start_time" time,
	"end_time" time,
	"slot_duration_minutes" integer DEFAULT 60,
	"capacity" integer DEFAULT 1 NOT NULL,
	"is_holiday" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "slots_capacity_positive" CHECK ("slots"."capacity" >= 1),
	CONSTRAINT "slots_duration_positive" CHECK ("slots"."slot_duration_minutes" IS NULL OR "slots"."slot_duration_minutes" > 0)
);
--> statement-breakpoint
ALTER TABLE "camp_batches" ADD CONSTRAINT "camp_batches_camp_id_camps_id_fk" FOREIGN KEY ("camp_id") REFERENCES "public"."camps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "camp_batches_camp_code_unique" ON "camp_batches" USING btree ("camp_id","code");--> statement-breakpoint
CREATE UNIQUE INDEX "camps_code_unique" ON "camps" USING btree ("code");