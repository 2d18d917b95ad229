CREATE TABLE "audit_log" (
	"id" serial PRIMARY KEY NOT NULL,
	"actor_id" integer,
	"actor_email" text NOT NULL,
	"action" text NOT NULL,
	"entity_type" text NOT NULL,
	"entity_id" text NOT NULL,
	"summary" text NOT NULL,
	"before" jsonb,
	"after" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "closed_time_slots" (
	"slot_id" integer NOT NULL,
	"start_time" time NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "closed_time_slots_slot_id_start_time_pk" PRIMARY KEY("slot_id","start_time")
);
--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "origin" text DEFAULT 'online' NOT NULL;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "attendance" text;--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "closed_time_slots" ADD CONSTRAINT "closed_time_slots_slot_id_slots_id_fk" FOREIGN KEY ("slot_id") REFERENCES "public"."slots"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_log_created" ON "audit_log" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "audit_log_entity" ON "audit_log" USING btree ("entity_type","entity_id");--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_origin" CHECK ("bookings"."origin" IN ('online', 'offline', 'complimentary'));--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_attendance" CHECK ("bookings"."attendance" IS NULL OR "bookings"."attendance" IN ('attended', 'no_show'));