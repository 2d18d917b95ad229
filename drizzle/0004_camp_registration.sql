CREATE TABLE "camp_registrations" (
	"id" serial PRIMARY KEY NOT NULL,
	"reference" text NOT NULL,
	"camp_id" integer NOT NULL,
	"batch_id" integer NOT NULL,
	"swimmer_name" text NOT NULL,
	"email" text NOT NULL,
	"phone" text NOT NULL,
	"amount_paise" integer NOT NULL,
	"status" text NOT NULL,
	"hold_expires_at" timestamp with time zone,
	"confirmed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "camp_registrations_amount" CHECK ("camp_registrations"."amount_paise" > 0),
	CONSTRAINT "camp_registrations_status" CHECK ("camp_registrations"."status" IN ('pending', 'confirmed', 'expired', 'payment_failed', 'cancelled', 'refund_pending', 'refunded')),
	CONSTRAINT "camp_registrations_hold" CHECK ("camp_registrations"."status" <> 'pending' OR "camp_registrations"."hold_expires_at" IS NOT NULL)
);
--> statement-breakpoint
CREATE TABLE "camp_waitlist" (
	"id" serial PRIMARY KEY NOT NULL,
	"camp_id" integer NOT NULL,
	"batch_id" integer NOT NULL,
	"swimmer_name" text NOT NULL,
	"email" text NOT NULL,
	"phone" text NOT NULL,
	"status" text DEFAULT 'waiting' NOT NULL,
	"registration_id" integer,
	"offered_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "camp_waitlist_status" CHECK ("camp_waitlist"."status" IN ('waiting', 'offered', 'registered', 'expired', 'cancelled'))
);
--> statement-breakpoint
ALTER TABLE "camp_batches" DROP CONSTRAINT "camp_batches_capacity";--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "camp_registration_id" integer;--> statement-breakpoint
ALTER TABLE "camp_registrations" ADD CONSTRAINT "camp_registrations_camp_id_camps_id_fk" FOREIGN KEY ("camp_id") REFERENCES "public"."camps"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "camp_registrations" ADD CONSTRAINT "camp_registrations_batch_id_camp_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."camp_batches"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "camp_waitlist" ADD CONSTRAINT "camp_waitlist_camp_id_camps_id_fk" FOREIGN KEY ("camp_id") REFERENCES "public"."camps"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "camp_waitlist" ADD CONSTRAINT "camp_waitlist_batch_id_camp_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."camp_batches"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "camp_waitlist" ADD CONSTRAINT "camp_waitlist_registration_id_camp_registrations_id_fk" FOREIGN KEY ("registration_id") REFERENCES "public"."camp_registrations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "camp_registrations_reference_unique" ON "camp_registrations" USING btree ("reference");--> statement-breakpoint
CREATE INDEX "camp_registrations_seat" ON "camp_registrations" USING btree ("batch_id","status");--> statement-breakpoint
CREATE INDEX "camp_registrations_email" ON "camp_registrations" USING btree ("email");--> statement-breakpoint
CREATE UNIQUE INDEX "camp_registrations_one_per_swimmer" ON "camp_registrations" USING btree ("camp_id",lower("email"),lower("swimmer_name")) WHERE "camp_registrations"."status" IN ('pending', 'confirmed');--> statement-breakpoint
CREATE INDEX "camp_waitlist_queue" ON "camp_waitlist" USING btree ("batch_id","status","id");--> statement-breakpoint
CREATE UNIQUE INDEX "camp_waitlist_one_per_swimmer" ON "camp_waitlist" USING btree ("batch_id",lower("email"),lower("swimmer_name")) WHERE "camp_waitlist"."status" IN ('waiting', 'offered');--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_camp_registration_id_camp_registrations_id_fk" FOREIGN KEY ("camp_registration_id") REFERENCES "public"."camp_registrations"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payments_camp_registration" ON "payments" USING btree ("camp_registration_id");--> statement-breakpoint
ALTER TABLE "camp_batches" DROP COLUMN "seats_taken";--> statement-breakpoint
ALTER TABLE "camp_batches" ADD CONSTRAINT "camp_batches_capacity" CHECK ("camp_batches"."capacity" >= 0);--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_pays_for_one_thing" CHECK (("payments"."booking_id" IS NULL) <> ("payments"."camp_registration_id" IS NULL));