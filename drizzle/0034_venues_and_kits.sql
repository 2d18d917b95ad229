-- Venues, kits and who is where. The lab's home is one venue among others; today's opening hours
-- become its own (a window's venue defaults to the home, so nothing that opens hours at the lab
-- names it). A kit (a camera rig) is at the lab unless placed elsewhere, and a staff member works at
-- one place at a time: the database itself refuses two placements of one kit, or two assignments
-- of one person, whose ranges overlap (travel and set-up inside the range), however many people try
-- at once. btree_gist lets one GiST index compare the kit's or person's id with = and the ranges with &&.
CREATE EXTENSION IF NOT EXISTS btree_gist;
--> statement-breakpoint
CREATE TABLE "venues" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"address" text NOT NULL,
	"city" text NOT NULL,
	"state_code" text NOT NULL,
	"map_url" text,
	"photo_id" integer,
	"host_name" text,
	"host_email" text,
	"host_phone" text,
	"travel_minutes" integer DEFAULT 0 NOT NULL,
	"is_home" boolean DEFAULT false NOT NULL,
	"closed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "venues_state_code" CHECK ("venues"."state_code" ~ '^[0-9]{2}$'),
	CONSTRAINT "venues_travel" CHECK ("venues"."travel_minutes" BETWEEN 0 AND 2880),
	CONSTRAINT "venues_home_open" CHECK (NOT ("venues"."is_home" AND "venues"."closed_at" IS NOT NULL))
);
--> statement-breakpoint
-- The lab's own room, in a running installation named as its settings name the place of its
-- sessions (a new one is given its home when first seeded).
INSERT INTO "venues" ("name", "address", "city", "state_code", "is_home")
  SELECT coalesce((SELECT "session_location" FROM "site_settings" WHERE "id" = 1), 'The lab'), coalesce((SELECT "postal_address" FROM "site_settings" WHERE "id" = 1), ''), 'Bengaluru', '29', true
  WHERE EXISTS (SELECT 1 FROM "site_settings") OR EXISTS (SELECT 1 FROM "availability_windows");
--> statement-breakpoint
CREATE FUNCTION home_venue_id() RETURNS integer LANGUAGE sql STABLE AS $$ SELECT "id" FROM "venues" WHERE "is_home" $$;
--> statement-breakpoint
CREATE TABLE "kit_placements" (
	"id" serial PRIMARY KEY NOT NULL,
	"kit_id" integer NOT NULL,
	"venue_id" integer NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"during" "tstzrange" NOT NULL,
	"note" text,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "kit_placements_times" CHECK ("kit_placements"."starts_at" < "kit_placements"."ends_at" AND lower("kit_placements"."during") <= "kit_placements"."starts_at" AND upper("kit_placements"."during") >= "kit_placements"."ends_at")
);
--> statement-breakpoint
CREATE TABLE "kits" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"setup_minutes" integer DEFAULT 60 NOT NULL,
	"retired_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "kits_setup" CHECK ("kits"."setup_minutes" BETWEEN 0 AND 720)
);
--> statement-breakpoint
-- The lab's one rig to begin with; staff add the others.
INSERT INTO "kits" ("name") VALUES ('Underwater rig 1');
--> statement-breakpoint
CREATE TABLE "staff_assignments" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"venue_id" integer NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"during" "tstzrange" NOT NULL,
	"note" text,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "staff_assignments_times" CHECK ("staff_assignments"."starts_at" < "staff_assignments"."ends_at" AND lower("staff_assignments"."during") <= "staff_assignments"."starts_at" AND upper("staff_assignments"."during") >= "staff_assignments"."ends_at")
);
--> statement-breakpoint
ALTER TABLE "availability_windows" ADD COLUMN "venue_id" integer DEFAULT home_venue_id() NOT NULL;--> statement-breakpoint
ALTER TABLE "kit_placements" ADD CONSTRAINT "kit_placements_kit_id_kits_id_fk" FOREIGN KEY ("kit_id") REFERENCES "public"."kits"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kit_placements" ADD CONSTRAINT "kit_placements_venue_id_venues_id_fk" FOREIGN KEY ("venue_id") REFERENCES "public"."venues"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kit_placements" ADD CONSTRAINT "kit_placements_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "staff_assignments" ADD CONSTRAINT "staff_assignments_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "staff_assignments" ADD CONSTRAINT "staff_assignments_venue_id_venues_id_fk" FOREIGN KEY ("venue_id") REFERENCES "public"."venues"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "staff_assignments" ADD CONSTRAINT "staff_assignments_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "venues" ADD CONSTRAINT "venues_photo_id_media_items_id_fk" FOREIGN KEY ("photo_id") REFERENCES "public"."media_items"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "kit_placements_venue" ON "kit_placements" USING btree ("venue_id");--> statement-breakpoint
CREATE UNIQUE INDEX "kits_name_unique" ON "kits" USING btree (lower("name"));--> statement-breakpoint
CREATE INDEX "staff_assignments_venue" ON "staff_assignments" USING btree ("venue_id");--> statement-breakpoint
CREATE UNIQUE INDEX "venues_name_unique" ON "venues" USING btree (lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "venues_one_home" ON "venues" USING btree ("is_home") WHERE "venues"."is_home";--> statement-breakpoint
CREATE INDEX "venues_photo" ON "venues" USING btree ("photo_id");--> statement-breakpoint
ALTER TABLE "availability_windows" ADD CONSTRAINT "availability_windows_venue_id_venues_id_fk" FOREIGN KEY ("venue_id") REFERENCES "public"."venues"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "availability_windows_venue_date" ON "availability_windows" USING btree ("venue_id","date");;--> statement-breakpoint
ALTER TABLE "kit_placements" ADD CONSTRAINT "kit_placements_kit_id_during_excl" EXCLUDE USING gist ("kit_id" WITH =, "during" WITH &&);--> statement-breakpoint
ALTER TABLE "staff_assignments" ADD CONSTRAINT "staff_assignments_user_id_during_excl" EXCLUDE USING gist ("user_id" WITH =, "during" WITH &&);--> statement-breakpoint
-- A kit leaving the lab (or coming back, or retired) changes which of the lab's time slots can be
-- booked: every instance drops the availability it keeps, as for a window changed.
CREATE TRIGGER kit_placements_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON kit_placements
  FOR EACH STATEMENT EXECUTE FUNCTION notify_availability_changed();
--> statement-breakpoint
CREATE TRIGGER kits_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON kits
  FOR EACH STATEMENT EXECUTE FUNCTION notify_availability_changed();
