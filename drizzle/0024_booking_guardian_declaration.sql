-- A session booked on /booking for a swimmer under 18 who is not one of an account's swimmers (a
-- guest's booking for their child) is made only with the booking person's declaration as parent or
-- guardian. It is kept as a guest camp registration's is: a guardian's consent with its method and
-- privacy notice version, tied to the booking it was given for.
ALTER TABLE "guardian_consents" ADD COLUMN "booking_id" integer;--> statement-breakpoint
ALTER TABLE "guardian_consents" ADD CONSTRAINT "guardian_consents_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "guardian_consents_booking" ON "guardian_consents" USING btree ("booking_id") WHERE "guardian_consents"."booking_id" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "guardian_consents" DROP CONSTRAINT "guardian_consents_subject";--> statement-breakpoint
ALTER TABLE "guardian_consents" ADD CONSTRAINT "guardian_consents_subject" CHECK ("guardian_consents"."swimmer_id" IS NOT NULL OR "guardian_consents"."camp_registration_id" IS NOT NULL OR "guardian_consents"."booking_id" IS NOT NULL);--> statement-breakpoint
ALTER TABLE "guardian_consents" DROP CONSTRAINT "guardian_consents_method";--> statement-breakpoint
ALTER TABLE "guardian_consents" ADD CONSTRAINT "guardian_consents_method" CHECK ("guardian_consents"."method" IN ('registration_form', 'consent_link', 'camp_form', 'booking_form'));
