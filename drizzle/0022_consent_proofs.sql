-- A parent is asked for consent only once the swimmer's own address is verified: until then the
-- request is kept 'unsent', without a link (so without a token). A consent given through the link
-- by an address that may be the swimmer's own (an account with it registered the same day, or it
-- has answered for swimmers of other accounts) says why (`weak_because`) and lets nothing be booked
-- until staff confirm it (`staff_confirmed_at`). After a parent withdraws, a new link goes only to
-- the address that withdrew, until staff re-open asking another (`reopened_at`).
ALTER TABLE "consent_requests" ALTER COLUMN "token_hash" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "consent_requests" DROP CONSTRAINT "consent_requests_status";--> statement-breakpoint
ALTER TABLE "consent_requests" ADD CONSTRAINT "consent_requests_status" CHECK ("consent_requests"."status" IN ('unsent', 'waiting', 'agreed', 'refused', 'expired'));--> statement-breakpoint
ALTER TABLE "consent_requests" ADD CONSTRAINT "consent_requests_token" CHECK ("consent_requests"."token_hash" IS NOT NULL OR "consent_requests"."status" = 'unsent');--> statement-breakpoint
ALTER TABLE "guardian_consents" ADD COLUMN "weak_because" text;--> statement-breakpoint
ALTER TABLE "guardian_consents" ADD COLUMN "staff_confirmed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "guardian_consents" ADD COLUMN "reopened_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "guardian_consents" ADD CONSTRAINT "guardian_consents_weak_because" CHECK ("guardian_consents"."weak_because" IN ('same_day_account', 'answers_for_others'));--> statement-breakpoint
CREATE INDEX "guardian_consents_to_confirm" ON "guardian_consents" USING btree ("given_at") WHERE "guardian_consents"."weak_because" IS NOT NULL AND "guardian_consents"."staff_confirmed_at" IS NULL AND "guardian_consents"."withdrawn_at" IS NULL;
