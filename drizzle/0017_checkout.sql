-- One checkout for everything the lab sells: promo codes and their uses, a camp's sibling price,
-- discounts recorded on each booking and registration (what is charged stays amount_paise), free
-- orders (a payment of nothing, through no gateway), and a credit note for each refund.
CREATE TABLE "credit_note_sequences" (
	"financial_year" integer PRIMARY KEY NOT NULL,
	"last_number" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "credit_notes" (
	"id" serial PRIMARY KEY NOT NULL,
	"refund_id" integer NOT NULL,
	"receipt_id" integer NOT NULL,
	"number" text NOT NULL,
	"financial_year" integer NOT NULL,
	"sequence" integer NOT NULL,
	"amount_paise" integer NOT NULL,
	"gstin" text DEFAULT '' NOT NULL,
	"gst_rate_basis_points" integer,
	"taxable_paise" integer NOT NULL,
	"cgst_paise" integer DEFAULT 0 NOT NULL,
	"sgst_paise" integer DEFAULT 0 NOT NULL,
	"igst_paise" integer DEFAULT 0 NOT NULL,
	"reason" text NOT NULL,
	"issued_at" timestamp with time zone NOT NULL,
	CONSTRAINT "credit_notes_amount" CHECK ("credit_notes"."amount_paise" > 0 AND "credit_notes"."taxable_paise" + "credit_notes"."cgst_paise" + "credit_notes"."sgst_paise" + "credit_notes"."igst_paise" = "credit_notes"."amount_paise")
);
--> statement-breakpoint
CREATE TABLE "promo_code_uses" (
	"id" serial PRIMARY KEY NOT NULL,
	"promo_code_id" integer NOT NULL,
	"booking_id" integer,
	"camp_registration_id" integer,
	"customer_key" text NOT NULL,
	"discount_paise" integer NOT NULL,
	"state" text DEFAULT 'held' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "promo_code_uses_order" CHECK (("promo_code_uses"."booking_id" IS NULL) <> ("promo_code_uses"."camp_registration_id" IS NULL)),
	CONSTRAINT "promo_code_uses_discount" CHECK ("promo_code_uses"."discount_paise" >= 0),
	CONSTRAINT "promo_code_uses_state" CHECK ("promo_code_uses"."state" IN ('held', 'used', 'released'))
);
--> statement-breakpoint
CREATE TABLE "promo_codes" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"discount_kind" text NOT NULL,
	"discount_value" integer NOT NULL,
	"products" text[] DEFAULT '{}'::text[] NOT NULL,
	"valid_from" timestamp with time zone,
	"valid_until" timestamp with time zone,
	"max_uses" integer,
	"max_uses_per_customer" integer,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "promo_codes_discount" CHECK (("promo_codes"."discount_kind" = 'percent' AND "promo_codes"."discount_value" BETWEEN 1 AND 10000) OR ("promo_codes"."discount_kind" = 'amount' AND "promo_codes"."discount_value" > 0)),
	CONSTRAINT "promo_codes_uses" CHECK (("promo_codes"."max_uses" IS NULL OR "promo_codes"."max_uses" >= 1) AND ("promo_codes"."max_uses_per_customer" IS NULL OR "promo_codes"."max_uses_per_customer" >= 1)),
	CONSTRAINT "promo_codes_window" CHECK ("promo_codes"."valid_from" IS NULL OR "promo_codes"."valid_until" IS NULL OR "promo_codes"."valid_until" > "promo_codes"."valid_from")
);
--> statement-breakpoint
ALTER TABLE "bookings" DROP CONSTRAINT "bookings_amount";--> statement-breakpoint
ALTER TABLE "camp_registrations" DROP CONSTRAINT "camp_registrations_amount";--> statement-breakpoint
ALTER TABLE "payments" DROP CONSTRAINT "payments_amount";--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "promo_discount_paise" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "camp_registrations" ADD COLUMN "sibling_discount_paise" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "camp_registrations" ADD COLUMN "promo_discount_paise" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "camps" ADD COLUMN "sibling_discount_kind" text;--> statement-breakpoint
ALTER TABLE "camps" ADD COLUMN "sibling_discount_value" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "credit_notes" ADD CONSTRAINT "credit_notes_refund_id_refunds_id_fk" FOREIGN KEY ("refund_id") REFERENCES "public"."refunds"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_notes" ADD CONSTRAINT "credit_notes_receipt_id_receipts_id_fk" FOREIGN KEY ("receipt_id") REFERENCES "public"."receipts"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "promo_code_uses" ADD CONSTRAINT "promo_code_uses_promo_code_id_promo_codes_id_fk" FOREIGN KEY ("promo_code_id") REFERENCES "public"."promo_codes"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "promo_code_uses" ADD CONSTRAINT "promo_code_uses_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "promo_code_uses" ADD CONSTRAINT "promo_code_uses_camp_registration_id_camp_registrations_id_fk" FOREIGN KEY ("camp_registration_id") REFERENCES "public"."camp_registrations"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "credit_notes_refund_unique" ON "credit_notes" USING btree ("refund_id");--> statement-breakpoint
CREATE UNIQUE INDEX "credit_notes_number_unique" ON "credit_notes" USING btree ("number");--> statement-breakpoint
CREATE UNIQUE INDEX "credit_notes_year_sequence_unique" ON "credit_notes" USING btree ("financial_year","sequence");--> statement-breakpoint
CREATE INDEX "credit_notes_receipt" ON "credit_notes" USING btree ("receipt_id");--> statement-breakpoint
CREATE INDEX "promo_code_uses_code" ON "promo_code_uses" USING btree ("promo_code_id","state");--> statement-breakpoint
CREATE INDEX "promo_code_uses_customer" ON "promo_code_uses" USING btree ("promo_code_id","customer_key");--> statement-breakpoint
CREATE UNIQUE INDEX "promo_code_uses_booking" ON "promo_code_uses" USING btree ("booking_id") WHERE "promo_code_uses"."state" <> 'released';--> statement-breakpoint
CREATE UNIQUE INDEX "promo_code_uses_camp_registration" ON "promo_code_uses" USING btree ("camp_registration_id") WHERE "promo_code_uses"."state" <> 'released';--> statement-breakpoint
CREATE UNIQUE INDEX "promo_codes_code_unique" ON "promo_codes" USING btree ("code");--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_amount" CHECK ("bookings"."amount_paise" >= 0 AND "bookings"."promo_discount_paise" >= 0);--> statement-breakpoint
ALTER TABLE "camp_registrations" ADD CONSTRAINT "camp_registrations_amount" CHECK ("camp_registrations"."amount_paise" >= 0 AND "camp_registrations"."sibling_discount_paise" >= 0 AND "camp_registrations"."promo_discount_paise" >= 0);--> statement-breakpoint
ALTER TABLE "camps" ADD CONSTRAINT "camps_sibling_discount" CHECK (("camps"."sibling_discount_kind" IS NULL AND "camps"."sibling_discount_value" = 0) OR ("camps"."sibling_discount_kind" = 'percent' AND "camps"."sibling_discount_value" BETWEEN 1 AND 10000) OR ("camps"."sibling_discount_kind" = 'amount' AND "camps"."sibling_discount_value" > 0));--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_amount" CHECK ("payments"."amount_paise" > 0 OR ("payments"."amount_paise" = 0 AND "payments"."gateway" = 'free'));