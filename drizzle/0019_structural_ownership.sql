-- Whose data each outbox message and audit entry is about, by structure: an account, a swimmer, a
-- booking, a camp registration. Erasing a person then finds their messages and entries by these keys
-- (and a message by its recipient), never by what a text says. The values naming a person in an audit
-- entry are kept apart from its summary (`personal`), so erasure replaces those values and nothing
-- else. Entries written before this are tied to what they were about through their entity. And an
-- account's WhatsApp number is the account's only once its owner proves it (`phone_verified_at`).
ALTER TABLE "audit_log" ADD COLUMN "personal" jsonb;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "account_id" integer;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "swimmer_id" integer;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "booking_id" integer;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "camp_registration_id" integer;--> statement-breakpoint
ALTER TABLE "outbox_messages" ADD COLUMN "account_id" integer;--> statement-breakpoint
ALTER TABLE "outbox_messages" ADD COLUMN "swimmer_id" integer;--> statement-breakpoint
ALTER TABLE "outbox_messages" ADD COLUMN "booking_id" integer;--> statement-breakpoint
ALTER TABLE "outbox_messages" ADD COLUMN "camp_registration_id" integer;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "phone_verified_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "outbox_messages" ADD CONSTRAINT "outbox_messages_account_id_users_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outbox_messages" ADD CONSTRAINT "outbox_messages_swimmer_id_swimmers_id_fk" FOREIGN KEY ("swimmer_id") REFERENCES "public"."swimmers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outbox_messages" ADD CONSTRAINT "outbox_messages_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outbox_messages" ADD CONSTRAINT "outbox_messages_camp_registration_id_camp_registrations_id_fk" FOREIGN KEY ("camp_registration_id") REFERENCES "public"."camp_registrations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_log_actor" ON "audit_log" USING btree ("actor_id") WHERE "audit_log"."actor_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "audit_log_account" ON "audit_log" USING btree ("account_id") WHERE "audit_log"."account_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "audit_log_swimmer" ON "audit_log" USING btree ("swimmer_id") WHERE "audit_log"."swimmer_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "audit_log_booking" ON "audit_log" USING btree ("booking_id") WHERE "audit_log"."booking_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "audit_log_camp_registration" ON "audit_log" USING btree ("camp_registration_id") WHERE "audit_log"."camp_registration_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "outbox_messages_account" ON "outbox_messages" USING btree ("account_id") WHERE "outbox_messages"."account_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "outbox_messages_swimmer" ON "outbox_messages" USING btree ("swimmer_id") WHERE "outbox_messages"."swimmer_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "outbox_messages_booking" ON "outbox_messages" USING btree ("booking_id") WHERE "outbox_messages"."booking_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "outbox_messages_camp_registration" ON "outbox_messages" USING btree ("camp_registration_id") WHERE "outbox_messages"."camp_registration_id" IS NOT NULL;--> statement-breakpoint
UPDATE "audit_log" SET "booking_id" = b."id", "account_id" = b."user_id", "swimmer_id" = b."swimmer_id"
  FROM "bookings" b WHERE "audit_log"."entity_type" = 'booking' AND b."reference" = "audit_log"."entity_id";--> statement-breakpoint
UPDATE "audit_log" SET "camp_registration_id" = r."id", "account_id" = r."account_id", "swimmer_id" = r."swimmer_id"
  FROM "camp_registrations" r WHERE "audit_log"."entity_type" = 'camp_registration' AND (r."reference" = "audit_log"."entity_id" OR r."id"::text = "audit_log"."entity_id");--> statement-breakpoint
UPDATE "audit_log" SET "swimmer_id" = s."id", "account_id" = s."account_id"
  FROM "swimmers" s WHERE "audit_log"."entity_type" = 'swimmer' AND s."id"::text = "audit_log"."entity_id";--> statement-breakpoint
UPDATE "audit_log" SET "account_id" = u."id"
  FROM "users" u WHERE "audit_log"."entity_type" = 'customer' AND u."id"::text = "audit_log"."entity_id";--> statement-breakpoint
UPDATE "audit_log" SET "booking_id" = a."booking_id", "swimmer_id" = a."swimmer_id", "account_id" = b."user_id"
  FROM "analyses" a JOIN "bookings" b ON b."id" = a."booking_id" WHERE "audit_log"."entity_type" = 'analysis' AND a."id"::text = "audit_log"."entity_id";
