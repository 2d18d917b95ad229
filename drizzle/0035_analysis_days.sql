CREATE TABLE "analysis_days" (
	"id" serial PRIMARY KEY NOT NULL,
	"venue_id" integer NOT NULL,
	"product_code" text NOT NULL,
	"first_date" date NOT NULL,
	"last_date" date NOT NULL,
	"start_time" time NOT NULL,
	"end_time" time NOT NULL,
	"slot_minutes" integer NOT NULL,
	"rigs" integer DEFAULT 1 NOT NULL,
	"price_paise" integer NOT NULL,
	"what_to_bring" text DEFAULT '' NOT NULL,
	"host_seats" integer DEFAULT 0 NOT NULL,
	"release_at" timestamp with time zone NOT NULL,
	"published_at" timestamp with time zone,
	"closed_at" timestamp with time zone,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "analysis_days_dates" CHECK ("analysis_days"."first_date" <= "analysis_days"."last_date" AND "analysis_days"."last_date" <= "analysis_days"."first_date" + 6),
	CONSTRAINT "analysis_days_hours" CHECK ("analysis_days"."start_time" < "analysis_days"."end_time"),
	CONSTRAINT "analysis_days_slot" CHECK ("analysis_days"."slot_minutes" BETWEEN 5 AND 480),
	CONSTRAINT "analysis_days_rigs" CHECK ("analysis_days"."rigs" BETWEEN 1 AND 20),
	CONSTRAINT "analysis_days_price" CHECK ("analysis_days"."price_paise" >= 0),
	CONSTRAINT "analysis_days_host_seats" CHECK ("analysis_days"."host_seats" >= 0)
);
--> statement-breakpoint
ALTER TABLE "availability_windows" ADD COLUMN "analysis_day_id" integer;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "via_host_link" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "analysis_days" ADD CONSTRAINT "analysis_days_venue_id_venues_id_fk" FOREIGN KEY ("venue_id") REFERENCES "public"."venues"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analysis_days" ADD CONSTRAINT "analysis_days_product_code_catalogue_items_code_fk" FOREIGN KEY ("product_code") REFERENCES "public"."catalogue_items"("code") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analysis_days" ADD CONSTRAINT "analysis_days_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "analysis_days_venue" ON "analysis_days" USING btree ("venue_id");--> statement-breakpoint
CREATE INDEX "analysis_days_dates" ON "analysis_days" USING btree ("last_date");--> statement-breakpoint
ALTER TABLE "availability_windows" ADD CONSTRAINT "availability_windows_analysis_day_id_analysis_days_id_fk" FOREIGN KEY ("analysis_day_id") REFERENCES "public"."analysis_days"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "availability_windows_analysis_day_date" ON "availability_windows" USING btree ("analysis_day_id","date") WHERE "availability_windows"."analysis_day_id" IS NOT NULL;--> statement-breakpoint
-- An analysis day's dates, prices and release change what the pages show of availability.
CREATE TRIGGER analysis_days_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON analysis_days
  FOR EACH STATEMENT EXECUTE FUNCTION notify_availability_changed();
