-- WhatsApp: the outbox carries WhatsApp messages as well as e-mails (outbox_emails becomes
-- outbox_messages, with a channel, the template and WhatsApp's delivery status), opt-ins per number,
-- and the webhook notifications already acted on. Phone numbers are stored in E.164 from now on:
-- the ones already stored that are plainly an Indian mobile (10 digits, with or without 0, 91 or +91)
-- or a number with its country code are rewritten so; anything else stays as typed.
ALTER TABLE "outbox_emails" RENAME TO "outbox_messages";--> statement-breakpoint
ALTER TABLE "outbox_messages" RENAME CONSTRAINT "outbox_emails_pkey" TO "outbox_messages_pkey";--> statement-breakpoint
ALTER TABLE "outbox_messages" RENAME CONSTRAINT "outbox_emails_status" TO "outbox_messages_status";--> statement-breakpoint
ALTER SEQUENCE "outbox_emails_id_seq" RENAME TO "outbox_messages_id_seq";--> statement-breakpoint
CREATE TABLE "whatsapp_consents" (
	"phone" text PRIMARY KEY NOT NULL,
	"opted_in" boolean NOT NULL,
	"opted_in_at" timestamp with time zone,
	"opt_in_wording" text,
	"opt_in_source" text,
	"opted_out_at" timestamp with time zone,
	"opt_out_source" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "whatsapp_consents_phone_e164" CHECK ("whatsapp_consents"."phone" ~ '^\+[1-9][0-9]{7,14}$')
);
--> statement-breakpoint
CREATE TABLE "whatsapp_webhook_events" (
	"event_key" text PRIMARY KEY NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "outbox_emails_due";--> statement-breakpoint
ALTER TABLE "outbox_messages" ADD COLUMN "channel" text DEFAULT 'email' NOT NULL;--> statement-breakpoint
ALTER TABLE "outbox_messages" ADD COLUMN "template_name" text;--> statement-breakpoint
ALTER TABLE "outbox_messages" ADD COLUMN "template_params" jsonb;--> statement-breakpoint
ALTER TABLE "outbox_messages" ADD COLUMN "provider_message_id" text;--> statement-breakpoint
ALTER TABLE "outbox_messages" ADD COLUMN "delivery_status" text;--> statement-breakpoint
ALTER TABLE "outbox_messages" ADD COLUMN "delivery_error" text;--> statement-breakpoint
ALTER TABLE "outbox_messages" ADD COLUMN "delivery_updated_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "whatsapp_webhook_events_received_at" ON "whatsapp_webhook_events" USING btree ("received_at");--> statement-breakpoint
CREATE INDEX "outbox_messages_due" ON "outbox_messages" USING btree ("channel","status","next_attempt_at");--> statement-breakpoint
CREATE INDEX "outbox_messages_to" ON "outbox_messages" USING btree ("to");--> statement-breakpoint
CREATE UNIQUE INDEX "outbox_messages_provider_message_id" ON "outbox_messages" USING btree ("provider_message_id");--> statement-breakpoint
ALTER TABLE "outbox_messages" ADD CONSTRAINT "outbox_messages_channel" CHECK ("outbox_messages"."channel" IN ('email', 'whatsapp'));--> statement-breakpoint
ALTER TABLE "outbox_messages" ADD CONSTRAINT "outbox_messages_delivery_status" CHECK ("outbox_messages"."delivery_status" IN ('sent', 'delivered', 'read', 'failed'));--> statement-breakpoint
UPDATE "users" SET "phone" = CASE
  WHEN regexp_replace("phone", '\D', '', 'g') ~ '^(0|91)?[6-9][0-9]{9}$' AND "phone" !~ '^\s*\+(?!\s*9\s*1)'
    THEN '+91' || right(regexp_replace("phone", '\D', '', 'g'), 10)
  WHEN "phone" ~ '^\s*\+[0-9\s().-]+$' AND regexp_replace("phone", '\D', '', 'g') ~ '^[1-9][0-9]{7,14}$'
    THEN '+' || regexp_replace("phone", '\D', '', 'g')
  ELSE "phone" END
 WHERE "phone" IS NOT NULL;--> statement-breakpoint
UPDATE "bookings" SET "customer_phone" = CASE
  WHEN regexp_replace("customer_phone", '\D', '', 'g') ~ '^(0|91)?[6-9][0-9]{9}$' AND "customer_phone" !~ '^\s*\+(?!\s*9\s*1)'
    THEN '+91' || right(regexp_replace("customer_phone", '\D', '', 'g'), 10)
  WHEN "customer_phone" ~ '^\s*\+[0-9\s().-]+$' AND regexp_replace("customer_phone", '\D', '', 'g') ~ '^[1-9][0-9]{7,14}$'
    THEN '+' || regexp_replace("customer_phone", '\D', '', 'g')
  ELSE "customer_phone" END
 WHERE "customer_phone" IS NOT NULL;--> statement-breakpoint
UPDATE "camp_registrations" SET "phone" = CASE
  WHEN regexp_replace("phone", '\D', '', 'g') ~ '^(0|91)?[6-9][0-9]{9}$' AND "phone" !~ '^\s*\+(?!\s*9\s*1)'
    THEN '+91' || right(regexp_replace("phone", '\D', '', 'g'), 10)
  WHEN "phone" ~ '^\s*\+[0-9\s().-]+$' AND regexp_replace("phone", '\D', '', 'g') ~ '^[1-9][0-9]{7,14}$'
    THEN '+' || regexp_replace("phone", '\D', '', 'g')
  ELSE "phone" END
 WHERE "phone" IS NOT NULL;--> statement-breakpoint
UPDATE "camp_line" SET "phone" = CASE
  WHEN regexp_replace("phone", '\D', '', 'g') ~ '^(0|91)?[6-9][0-9]{9}$' AND "phone" !~ '^\s*\+(?!\s*9\s*1)'
    THEN '+91' || right(regexp_replace("phone", '\D', '', 'g'), 10)
  WHEN "phone" ~ '^\s*\+[0-9\s().-]+$' AND regexp_replace("phone", '\D', '', 'g') ~ '^[1-9][0-9]{7,14}$'
    THEN '+' || regexp_replace("phone", '\D', '', 'g')
  ELSE "phone" END
 WHERE "phone" IS NOT NULL;--> statement-breakpoint
UPDATE "camp_waitlist" SET "phone" = CASE
  WHEN regexp_replace("phone", '\D', '', 'g') ~ '^(0|91)?[6-9][0-9]{9}$' AND "phone" !~ '^\s*\+(?!\s*9\s*1)'
    THEN '+91' || right(regexp_replace("phone", '\D', '', 'g'), 10)
  WHEN "phone" ~ '^\s*\+[0-9\s().-]+$' AND regexp_replace("phone", '\D', '', 'g') ~ '^[1-9][0-9]{7,14}$'
    THEN '+' || regexp_replace("phone", '\D', '', 'g')
  ELSE "phone" END
 WHERE "phone" IS NOT NULL;
