CREATE TABLE "booking_days" (
	"booking_id" integer NOT NULL,
	"day_number" integer NOT NULL,
	"slot_id" integer NOT NULL,
	"date" date NOT NULL,
	"start_time" time NOT NULL,
	"end_time" time NOT NULL,
	CONSTRAINT "booking_days_booking_id_day_number_pk" PRIMARY KEY("booking_id","day_number"),
	CONSTRAINT "booking_days_day_number" CHECK ("booking_days"."day_number" BETWEEN 1 AND 3)
);
--> statement-breakpoint
CREATE TABLE "bookings" (
	"id" serial PRIMARY KEY NOT NULL,
	"reference" text NOT NULL,
	"product_code" text NOT NULL,
	"user_id" integer,
	"customer_name" text NOT NULL,
	"customer_email" text NOT NULL,
	"customer_phone" text,
	"swimming_experience" text,
	"notes" text,
	"start_time" time NOT NULL,
	"end_time" time NOT NULL,
	"amount_paise" integer NOT NULL,
	"status" text NOT NULL,
	"hold_expires_at" timestamp with time zone,
	"confirmed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "bookings_amount" CHECK ("bookings"."amount_paise" >= 0),
	CONSTRAINT "bookings_status" CHECK ("bookings"."status" IN ('pending', 'confirmed', 'expired', 'payment_failed', 'cancelled', 'refund_pending', 'refunded')),
	CONSTRAINT "bookings_hold" CHECK ("bookings"."status" <> 'pending' OR "bookings"."hold_expires_at" IS NOT NULL)
);
--> statement-breakpoint
CREATE TABLE "instance_secrets" (
	"name" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payment_events" (
	"id" serial PRIMARY KEY NOT NULL,
	"gateway" text NOT NULL,
	"event_key" text NOT NULL,
	"source" text NOT NULL,
	"order_id" text,
	"refund_id" text,
	"state" text,
	"amount_paise" integer,
	"outcome" text NOT NULL,
	"payload" jsonb,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payments" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_id" text NOT NULL,
	"booking_id" integer,
	"gateway" text NOT NULL,
	"amount_paise" integer NOT NULL,
	"state" text DEFAULT 'initiated' NOT NULL,
	"gateway_order_id" text,
	"transaction_id" text,
	"payment_mode" text,
	"checkout_url" text,
	"expires_at" timestamp with time zone NOT NULL,
	"failure_reason" text,
	"completed_at" timestamp with time zone,
	"next_check_at" timestamp with time zone,
	"last_checked_at" timestamp with time zone,
	"check_count" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payments_amount" CHECK ("payments"."amount_paise" > 0),
	CONSTRAINT "payments_state" CHECK ("payments"."state" IN ('initiated', 'pending', 'completed', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "refunds" (
	"id" serial PRIMARY KEY NOT NULL,
	"refund_id" text NOT NULL,
	"payment_id" integer NOT NULL,
	"amount_paise" integer NOT NULL,
	"reason" text NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"gateway_refund_id" text,
	"submitted_at" timestamp with time zone,
	"next_check_at" timestamp with time zone,
	"check_count" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"completed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "refunds_amount" CHECK ("refunds"."amount_paise" > 0),
	CONSTRAINT "refunds_state" CHECK ("refunds"."state" IN ('pending', 'completed', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "sandbox_gateway_orders" (
	"merchant_order_id" text PRIMARY KEY NOT NULL,
	"gateway_order_id" text NOT NULL,
	"amount_paise" integer NOT NULL,
	"description" text NOT NULL,
	"customer_name" text NOT NULL,
	"redirect_url" text NOT NULL,
	"callback_url" text NOT NULL,
	"state" text DEFAULT 'PENDING' NOT NULL,
	"transaction_id" text,
	"payment_mode" text,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sandbox_gateway_orders_gateway_order_id_unique" UNIQUE("gateway_order_id")
);
--> statement-breakpoint
CREATE TABLE "sandbox_gateway_refunds" (
	"merchant_refund_id" text PRIMARY KEY NOT NULL,
	"merchant_order_id" text NOT NULL,
	"gateway_refund_id" text NOT NULL,
	"amount_paise" integer NOT NULL,
	"state" text DEFAULT 'PENDING' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sandbox_gateway_refunds_gateway_refund_id_unique" UNIQUE("gateway_refund_id")
);
--> statement-breakpoint
ALTER TABLE "booking_days" ADD CONSTRAINT "booking_days_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "booking_days" ADD CONSTRAINT "booking_days_slot_id_slots_id_fk" FOREIGN KEY ("slot_id") REFERENCES "public"."slots"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_product_code_catalogue_items_code_fk" FOREIGN KEY ("product_code") REFERENCES "public"."catalogue_items"("code") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox_gateway_refunds" ADD CONSTRAINT "sandbox_gateway_refunds_merchant_order_id_sandbox_gateway_orders_merchant_order_id_fk" FOREIGN KEY ("merchant_order_id") REFERENCES "public"."sandbox_gateway_orders"("merchant_order_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "booking_days_seat" ON "booking_days" USING btree ("slot_id","start_time");--> statement-breakpoint
CREATE INDEX "booking_days_date" ON "booking_days" USING btree ("date");--> statement-breakpoint
CREATE UNIQUE INDEX "bookings_reference_unique" ON "bookings" USING btree ("reference");--> statement-breakpoint
CREATE INDEX "bookings_user_created" ON "bookings" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "bookings_status_hold" ON "bookings" USING btree ("status","hold_expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_events_gateway_key_unique" ON "payment_events" USING btree ("gateway","event_key");--> statement-breakpoint
CREATE INDEX "payment_events_order" ON "payment_events" USING btree ("order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "payments_order_id_unique" ON "payments" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "payments_booking" ON "payments" USING btree ("booking_id");--> statement-breakpoint
CREATE INDEX "payments_transaction" ON "payments" USING btree ("transaction_id");--> statement-breakpoint
CREATE INDEX "payments_due_check" ON "payments" USING btree ("next_check_at");--> statement-breakpoint
CREATE UNIQUE INDEX "refunds_refund_id_unique" ON "refunds" USING btree ("refund_id");--> statement-breakpoint
CREATE INDEX "refunds_payment" ON "refunds" USING btree ("payment_id");--> statement-breakpoint
CREATE INDEX "refunds_due" ON "refunds" USING btree ("next_check_at");