CREATE TABLE "analysis_day_line" (
	"id" serial PRIMARY KEY NOT NULL,
	"analysis_day_id" integer NOT NULL,
	"details" jsonb NOT NULL,
	"email" text NOT NULL,
	"promo_code" text,
	"host_key" text,
	"holder_user_id" integer,
	"holder_network" text NOT NULL,
	"holder_browser" text,
	"outcome" text,
	"message" text,
	"field" text,
	"booking_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"settled_at" timestamp with time zone,
	CONSTRAINT "analysis_day_line_outcome" CHECK ("analysis_day_line"."outcome" IN ('seat', 'taken', 'full', 'refused'))
);
--> statement-breakpoint
ALTER TABLE "analysis_day_line" ADD CONSTRAINT "analysis_day_line_analysis_day_id_analysis_days_id_fk" FOREIGN KEY ("analysis_day_id") REFERENCES "public"."analysis_days"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analysis_day_line" ADD CONSTRAINT "analysis_day_line_holder_user_id_users_id_fk" FOREIGN KEY ("holder_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analysis_day_line" ADD CONSTRAINT "analysis_day_line_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "analysis_day_line_waiting" ON "analysis_day_line" USING btree ("id") WHERE "analysis_day_line"."outcome" IS NULL;--> statement-breakpoint
CREATE INDEX "analysis_day_line_settled_at" ON "analysis_day_line" USING btree ("settled_at");--> statement-breakpoint
CREATE INDEX "analysis_day_line_booking" ON "analysis_day_line" USING btree ("booking_id");--> statement-breakpoint
CREATE INDEX "analysis_day_line_holder" ON "analysis_day_line" USING btree ("holder_user_id");
