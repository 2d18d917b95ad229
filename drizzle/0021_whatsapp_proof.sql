-- A WhatsApp number gets the lab's messages, and is an account's, only once its owner proves it: a
-- code sent to it on WhatsApp for an account (one_time_codes purpose 'verify_phone', kept with the
-- number it proves), or a reply from it. A form's ticked box only asks (whatsapp_consents.requested_*),
-- and the number is sent a request to confirm at most once a day (confirmation_sent_at). Private links
-- in WhatsApp messages are kept as a reference (outbox_messages.private_link) and made when sent.
ALTER TABLE "one_time_codes" DROP CONSTRAINT "one_time_codes_purpose";--> statement-breakpoint
ALTER TABLE "one_time_codes" ADD CONSTRAINT "one_time_codes_purpose" CHECK ("one_time_codes"."purpose" IN ('verify_email', 'reset_password', 'delete_account', 'verify_phone'));--> statement-breakpoint
ALTER TABLE "one_time_codes" ADD COLUMN "phone" text;--> statement-breakpoint
ALTER TABLE "one_time_codes" ADD CONSTRAINT "one_time_codes_phone" CHECK (("one_time_codes"."purpose" = 'verify_phone') = ("one_time_codes"."phone" IS NOT NULL));--> statement-breakpoint
ALTER TABLE "whatsapp_consents" ADD COLUMN "requested_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "whatsapp_consents" ADD COLUMN "request_source" text;--> statement-breakpoint
ALTER TABLE "whatsapp_consents" ADD COLUMN "request_wording" text;--> statement-breakpoint
ALTER TABLE "whatsapp_consents" ADD COLUMN "confirmation_sent_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "outbox_messages" ADD COLUMN "private_link" jsonb;
