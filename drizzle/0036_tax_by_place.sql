-- Tax by place of supply. A service is supplied where it is performed: at a venue in another state a
-- family pays IGST, unless the lab holds a GST registration there (a venue's own GSTIN and invoice
-- series). Each receipt now keeps what it was issued with (the place, the seller's GSTIN, the tax and
-- its rate), and existing ones are given what they show today: the lab's settings and its home.
ALTER TABLE "venues" ADD COLUMN "gstin" text;--> statement-breakpoint
ALTER TABLE "venues" ADD COLUMN "invoice_series" text;--> statement-breakpoint
ALTER TABLE "venues" ADD CONSTRAINT "venues_gst_registration" CHECK (("venues"."gstin" IS NULL) = ("venues"."invoice_series" IS NULL) AND ("venues"."gstin" IS NULL OR left("venues"."gstin", 2) = "venues"."state_code"));--> statement-breakpoint
CREATE UNIQUE INDEX "venues_invoice_series_unique" ON "venues" USING btree ("invoice_series") WHERE "venues"."invoice_series" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "receipt_sequences" ADD COLUMN "series" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "receipt_sequences" DROP CONSTRAINT "receipt_sequences_pkey";--> statement-breakpoint
ALTER TABLE "receipt_sequences" ADD CONSTRAINT "receipt_sequences_series_financial_year_pk" PRIMARY KEY ("series", "financial_year");--> statement-breakpoint
ALTER TABLE "credit_note_sequences" ADD COLUMN "series" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "credit_note_sequences" DROP CONSTRAINT "credit_note_sequences_pkey";--> statement-breakpoint
ALTER TABLE "credit_note_sequences" ADD CONSTRAINT "credit_note_sequences_series_financial_year_pk" PRIMARY KEY ("series", "financial_year");--> statement-breakpoint
ALTER TABLE "receipts" ADD COLUMN "series" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "receipts" ADD COLUMN "seller_gstin" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "receipts" ADD COLUMN "tax_kind" text DEFAULT 'none' NOT NULL;--> statement-breakpoint
ALTER TABLE "receipts" ADD COLUMN "gst_rate_basis_points" integer;--> statement-breakpoint
ALTER TABLE "receipts" ADD COLUMN "supply_venue_name" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "receipts" ADD COLUMN "supply_venue_address" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "receipts" ADD COLUMN "supply_state_code" text DEFAULT '29' NOT NULL;--> statement-breakpoint
UPDATE "receipts" SET
	"seller_gstin" = trim(s."gstin"),
	"tax_kind" = CASE WHEN trim(s."gstin") <> '' AND s."gst_rate_basis_points" > 0 THEN 'cgst_sgst' ELSE 'none' END,
	"gst_rate_basis_points" = CASE WHEN trim(s."gstin") <> '' AND s."gst_rate_basis_points" > 0 THEN s."gst_rate_basis_points" END,
	"supply_venue_name" = h."name",
	"supply_venue_address" = concat_ws(', ', nullif(h."address", ''), nullif(h."city", '')),
	"supply_state_code" = h."state_code"
FROM "site_settings" s, "venues" h
WHERE s."id" = 1 AND h."is_home";--> statement-breakpoint
ALTER TABLE "receipts" ALTER COLUMN "supply_state_code" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "receipts" ADD CONSTRAINT "receipts_tax" CHECK (("receipts"."tax_kind" = 'none' AND "receipts"."gst_rate_basis_points" IS NULL) OR ("receipts"."tax_kind" IN ('cgst_sgst', 'igst') AND "receipts"."gst_rate_basis_points" > 0 AND "receipts"."seller_gstin" <> ''));--> statement-breakpoint
ALTER TABLE "receipts" ADD CONSTRAINT "receipts_supply_state_code" CHECK ("receipts"."supply_state_code" ~ '^[0-9]{2}$');--> statement-breakpoint
DROP INDEX "receipts_year_sequence_unique";--> statement-breakpoint
CREATE UNIQUE INDEX "receipts_series_year_sequence_unique" ON "receipts" USING btree ("series","financial_year","sequence");--> statement-breakpoint
ALTER TABLE "credit_notes" ADD COLUMN "series" text DEFAULT '' NOT NULL;--> statement-breakpoint
DROP INDEX "credit_notes_year_sequence_unique";--> statement-breakpoint
CREATE UNIQUE INDEX "credit_notes_series_year_sequence_unique" ON "credit_notes" USING btree ("series","financial_year","sequence");
