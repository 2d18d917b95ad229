-- Who swims in a session booked for someone else who is no account's swimmer (a guest's child) is
-- named on the booking; their age, as the booking person gave it, is kept beside the name, so staff
-- see it and the analysis compares the swimmer with the reference levels of their age.
ALTER TABLE "bookings" ADD COLUMN "swimmer_age" integer;--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_swimmer_age" CHECK ("bookings"."swimmer_age" IS NULL OR "bookings"."swimmer_age" BETWEEN 1 AND 120);
