CREATE TABLE "camp_line" (
	"id" serial PRIMARY KEY NOT NULL,
	"camp_code" text NOT NULL,
	"batch_code" text NOT NULL,
	"swimmer_name" text NOT NULL,
	"email" text NOT NULL,
	"phone" text NOT NULL,
	"holder_user_id" integer,
	"holder_network" text NOT NULL,
	"holder_browser" text,
	"outcome" text,
	"message" text,
	"registration_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"settled_at" timestamp with time zone,
	CONSTRAINT "camp_line_outcome" CHECK ("camp_line"."outcome" IN ('seat', 'full', 'refused', 'limited'))
);
--> statement-breakpoint
ALTER TABLE "camp_line" ADD CONSTRAINT "camp_line_holder_user_id_users_id_fk" FOREIGN KEY ("holder_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "camp_line" ADD CONSTRAINT "camp_line_registration_id_camp_registrations_id_fk" FOREIGN KEY ("registration_id") REFERENCES "public"."camp_registrations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "camp_line_waiting" ON "camp_line" USING btree ("id") WHERE "camp_line"."outcome" IS NULL;--> statement-breakpoint
CREATE INDEX "camp_line_settled_at" ON "camp_line" USING btree ("settled_at");