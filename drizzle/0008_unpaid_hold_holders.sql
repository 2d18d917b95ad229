ALTER TABLE "bookings" ADD COLUMN "holder_network" text;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "holder_browser" text;--> statement-breakpoint
ALTER TABLE "camp_registrations" ADD COLUMN "holder_network" text;--> statement-breakpoint
ALTER TABLE "camp_registrations" ADD COLUMN "holder_browser" text;--> statement-breakpoint
ALTER TABLE "camp_waitlist" ADD COLUMN "confirmed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "camp_waitlist" ADD COLUMN "holder_network" text;--> statement-breakpoint
CREATE INDEX "bookings_unpaid_network" ON "bookings" USING btree ("holder_network") WHERE "bookings"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "bookings_unpaid_browser" ON "bookings" USING btree ("holder_browser") WHERE "bookings"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "bookings_unpaid_email" ON "bookings" USING btree (lower("customer_email")) WHERE "bookings"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "camp_registrations_unpaid_network" ON "camp_registrations" USING btree ("holder_network") WHERE "camp_registrations"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "camp_registrations_unpaid_browser" ON "camp_registrations" USING btree ("holder_browser") WHERE "camp_registrations"."status" = 'pending';--> statement-breakpoint
-- Entries made before the waitlist asked parents to confirm their address keep their place.
UPDATE "camp_waitlist" SET "confirmed_at" = "created_at" WHERE "status" IN ('waiting', 'offered');