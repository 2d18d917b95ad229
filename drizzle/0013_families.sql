CREATE TABLE "consent_requests" (
	"id" serial PRIMARY KEY NOT NULL,
	"swimmer_id" integer NOT NULL,
	"parent_email" text NOT NULL,
	"token_hash" text NOT NULL,
	"status" text DEFAULT 'waiting' NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"answered_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "consent_requests_status" CHECK ("consent_requests"."status" IN ('waiting', 'agreed', 'refused', 'expired'))
);
--> statement-breakpoint
CREATE TABLE "guardian_consents" (
	"id" serial PRIMARY KEY NOT NULL,
	"swimmer_id" integer,
	"camp_registration_id" integer,
	"guardian_name" text NOT NULL,
	"guardian_email" text NOT NULL,
	"email_verified_by" text NOT NULL,
	"notice_version" text NOT NULL,
	"method" text NOT NULL,
	"given_at" timestamp with time zone NOT NULL,
	"withdrawn_at" timestamp with time zone,
	CONSTRAINT "guardian_consents_subject" CHECK ("guardian_consents"."swimmer_id" IS NOT NULL OR "guardian_consents"."camp_registration_id" IS NOT NULL),
	CONSTRAINT "guardian_consents_method" CHECK ("guardian_consents"."method" IN ('registration_form', 'consent_link', 'camp_form')),
	CONSTRAINT "guardian_consents_verified_by" CHECK ("guardian_consents"."email_verified_by" IN ('account_code', 'consent_link', 'unverified'))
);
--> statement-breakpoint
CREATE TABLE "swimmers" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"is_account_holder" boolean DEFAULT false NOT NULL,
	"name" text NOT NULL,
	"birth_date" date,
	"age_years" integer,
	"age_given_on" date,
	"gender" text NOT NULL,
	"swimming_experience" text NOT NULL,
	"academy_name" text NOT NULL,
	"coach_name" text NOT NULL,
	"specialization" text NOT NULL,
	"other_specialization" text,
	"participate_in_events" boolean DEFAULT false NOT NULL,
	"stroke_best_time" text,
	"how_did_you_know" text,
	"other_source" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "swimmers_age" CHECK ("swimmers"."birth_date" IS NOT NULL OR ("swimmers"."age_years" IS NOT NULL AND "swimmers"."age_given_on" IS NOT NULL))
);
--> statement-breakpoint
ALTER TABLE "one_time_codes" DROP CONSTRAINT "one_time_codes_purpose";--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "swimmer_id" integer;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "swimmer_name" text;--> statement-breakpoint
ALTER TABLE "camp_registrations" ADD COLUMN "account_id" integer;--> statement-breakpoint
ALTER TABLE "camp_registrations" ADD COLUMN "swimmer_id" integer;--> statement-breakpoint
ALTER TABLE "site_settings" ADD COLUMN "grievance_officer_name" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "site_settings" ADD COLUMN "grievance_officer_email" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "consent_requests" ADD CONSTRAINT "consent_requests_swimmer_id_swimmers_id_fk" FOREIGN KEY ("swimmer_id") REFERENCES "public"."swimmers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "guardian_consents" ADD CONSTRAINT "guardian_consents_swimmer_id_swimmers_id_fk" FOREIGN KEY ("swimmer_id") REFERENCES "public"."swimmers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "guardian_consents" ADD CONSTRAINT "guardian_consents_camp_registration_id_camp_registrations_id_fk" FOREIGN KEY ("camp_registration_id") REFERENCES "public"."camp_registrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "swimmers" ADD CONSTRAINT "swimmers_account_id_users_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "consent_requests_token_unique" ON "consent_requests" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "consent_requests_swimmer" ON "consent_requests" USING btree ("swimmer_id");--> statement-breakpoint
CREATE INDEX "consent_requests_waiting" ON "consent_requests" USING btree ("expires_at") WHERE "consent_requests"."status" = 'waiting';--> statement-breakpoint
CREATE INDEX "guardian_consents_swimmer" ON "guardian_consents" USING btree ("swimmer_id");--> statement-breakpoint
CREATE INDEX "guardian_consents_camp_registration" ON "guardian_consents" USING btree ("camp_registration_id");--> statement-breakpoint
CREATE INDEX "swimmers_account" ON "swimmers" USING btree ("account_id");--> statement-breakpoint
CREATE UNIQUE INDEX "swimmers_one_account_holder" ON "swimmers" USING btree ("account_id") WHERE "swimmers"."is_account_holder";--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_swimmer_id_swimmers_id_fk" FOREIGN KEY ("swimmer_id") REFERENCES "public"."swimmers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "camp_registrations" ADD CONSTRAINT "camp_registrations_account_id_users_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "camp_registrations" ADD CONSTRAINT "camp_registrations_swimmer_id_swimmers_id_fk" FOREIGN KEY ("swimmer_id") REFERENCES "public"."swimmers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bookings_swimmer" ON "bookings" USING btree ("swimmer_id");--> statement-breakpoint
CREATE INDEX "camp_registrations_account" ON "camp_registrations" USING btree ("account_id");--> statement-breakpoint
-- Every existing customer becomes an account with one swimmer profile, themselves, made from its own
-- fields; the form asked for an age and kept 1 January of (the year in Bangalore − age) as the date of
-- birth, so the profile keeps that age as given on the day the account was made.
INSERT INTO "swimmers" ("account_id", "is_account_holder", "name", "age_years", "age_given_on", "gender", "swimming_experience",
  "academy_name", "coach_name", "specialization", "other_specialization", "participate_in_events", "stroke_best_time",
  "how_did_you_know", "other_source", "created_at", "updated_at")
SELECT "id", true, "name",
  GREATEST(1, extract(year FROM "created_at" AT TIME ZONE 'Asia/Kolkata')::integer - extract(year FROM "dob")::integer),
  ("created_at" AT TIME ZONE 'Asia/Kolkata')::date,
  coalesce("gender", 'other'), coalesce("swimming_experience", 'beginner'), coalesce("academy_name", 'NA'), coalesce("coach_name", 'NA'),
  coalesce("specialization", 'freestyle'), "other_specialization", coalesce("participate_in_events", false), "stroke_best_time",
  "how_did_you_know", "other_source", "created_at", "updated_at"
FROM "users"
WHERE "dob" IS NOT NULL AND NOT "is_admin"
ORDER BY "id";--> statement-breakpoint
-- Their bookings belong to that swimmer; every booking names who swims (a guest's booking: its customer).
UPDATE "bookings" SET "swimmer_id" = "swimmers"."id"
FROM "swimmers"
WHERE "swimmers"."account_id" = "bookings"."user_id" AND "swimmers"."is_account_holder";--> statement-breakpoint
UPDATE "bookings" SET "swimmer_name" = "customer_name";--> statement-breakpoint
ALTER TABLE "bookings" ALTER COLUMN "swimmer_name" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "dob";--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "gender";--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "swimming_experience";--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "academy_name";--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "coach_name";--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "specialization";--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "other_specialization";--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "participate_in_events";--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "stroke_best_time";--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "how_did_you_know";--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "other_source";--> statement-breakpoint
ALTER TABLE "one_time_codes" ADD CONSTRAINT "one_time_codes_purpose" CHECK ("one_time_codes"."purpose" IN ('verify_email', 'reset_password', 'delete_account'));