-- The table of the lab's availability windows (the dates and hours sessions can be booked in) is
-- named for what it holds, and so are the columns that point at a window. Renames only: every row,
-- id and its sequence stay as they were.
ALTER TABLE "slots" RENAME TO "availability_windows";--> statement-breakpoint
ALTER SEQUENCE "slots_id_seq" RENAME TO "availability_windows_id_seq";--> statement-breakpoint
ALTER TABLE "availability_windows" RENAME CONSTRAINT "slots_pkey" TO "availability_windows_pkey";--> statement-breakpoint
ALTER TABLE "availability_windows" RENAME CONSTRAINT "slots_capacity_positive" TO "availability_windows_capacity_positive";--> statement-breakpoint
ALTER TABLE "availability_windows" RENAME CONSTRAINT "slots_duration_positive" TO "availability_windows_duration_positive";--> statement-breakpoint
ALTER TRIGGER "slots_changed" ON "availability_windows" RENAME TO "availability_windows_changed";--> statement-breakpoint
ALTER TABLE "booking_days" RENAME COLUMN "slot_id" TO "window_id";--> statement-breakpoint
ALTER TABLE "booking_days" RENAME CONSTRAINT "booking_days_slot_id_slots_id_fk" TO "booking_days_window_id_availability_windows_id_fk";--> statement-breakpoint
ALTER TABLE "closed_time_slots" RENAME COLUMN "slot_id" TO "window_id";--> statement-breakpoint
ALTER TABLE "closed_time_slots" RENAME CONSTRAINT "closed_time_slots_slot_id_start_time_pk" TO "closed_time_slots_window_id_start_time_pk";--> statement-breakpoint
ALTER TABLE "closed_time_slots" RENAME CONSTRAINT "closed_time_slots_slot_id_slots_id_fk" TO "closed_time_slots_window_id_availability_windows_id_fk";--> statement-breakpoint
-- PostgreSQL 18 names NOT NULL constraints after their table and column ("slots_date_not_null");
-- older servers keep none, and this renames nothing there.
DO $$
DECLARE
  stale record;
BEGIN
  FOR stale IN
    SELECT con.conname, cls.relname, att.attname
    FROM pg_constraint con
    JOIN pg_class cls ON cls.oid = con.conrelid
    JOIN pg_attribute att ON att.attrelid = con.conrelid AND att.attnum = con.conkey[1]
    WHERE con.contype = 'n'
      AND cls.relname IN ('availability_windows', 'booking_days', 'closed_time_slots')
      AND con.conname IN ('slots_' || att.attname || '_not_null', cls.relname || '_slot_id_not_null')
  LOOP
    EXECUTE format('ALTER TABLE %I RENAME CONSTRAINT %I TO %I', stale.relname, stale.conname, stale.relname || '_' || stale.attname || '_not_null');
  END LOOP;
END;
$$;
