CREATE TABLE "analysis_day_waitlist" (
	"id" serial PRIMARY KEY NOT NULL,
	"analysis_day_id" integer NOT NULL,
	"swimmer_name" text NOT NULL,
	"email" text NOT NULL,
	"phone" text,
	"user_id" integer,
	"status" text DEFAULT 'waiting' NOT NULL,
	"booking_id" integer,
	"offered_at" timestamp with time zone,
	"confirmed_at" timestamp with time zone,
	"holder_network" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "analysis_day_waitlist_status" CHECK ("analysis_day_waitlist"."status" IN ('waiting', 'offered', 'booked', 'expired', 'declined', 'cancelled')),
	CONSTRAINT "analysis_day_waitlist_lengths" CHECK (length("analysis_day_waitlist"."email") <= 254 AND length("analysis_day_waitlist"."swimmer_name") BETWEEN 1 AND 100)
);
--> statement-breakpoint
ALTER TABLE "analysis_day_waitlist" ADD CONSTRAINT "analysis_day_waitlist_analysis_day_id_analysis_days_id_fk" FOREIGN KEY ("analysis_day_id") REFERENCES "public"."analysis_days"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analysis_day_waitlist" ADD CONSTRAINT "analysis_day_waitlist_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analysis_day_waitlist" ADD CONSTRAINT "analysis_day_waitlist_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "analysis_day_waitlist_queue" ON "analysis_day_waitlist" USING btree ("analysis_day_id","status","id");--> statement-breakpoint
CREATE INDEX "analysis_day_waitlist_booking" ON "analysis_day_waitlist" USING btree ("booking_id");--> statement-breakpoint
CREATE INDEX "analysis_day_waitlist_network" ON "analysis_day_waitlist" USING btree ("holder_network") WHERE "analysis_day_waitlist"."status" IN ('waiting', 'offered');--> statement-breakpoint
CREATE UNIQUE INDEX "analysis_day_waitlist_one_per_swimmer" ON "analysis_day_waitlist" USING btree ("analysis_day_id",lower("email"),lower("swimmer_name")) WHERE "analysis_day_waitlist"."status" IN ('waiting', 'offered');
