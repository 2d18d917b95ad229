-- Each instance keeps signed-in users and the booking calendar in memory; these notifications tell
-- every instance, at the moment a change commits, which copies to drop, however the row was changed.

-- A session ended or moved, or an account changed (signed out, disabled, promoted, new password):
-- the payload is the account's id, or empty when every account may have changed.
CREATE OR REPLACE FUNCTION notify_account_changed() RETURNS trigger AS $$
BEGIN
  IF TG_LEVEL = 'STATEMENT' THEN
    PERFORM pg_notify('account_changed', '');
  ELSIF TG_TABLE_NAME = 'users' THEN
    PERFORM pg_notify('account_changed', OLD.id::text);
  ELSE
    PERFORM pg_notify('account_changed', OLD.user_id::text);
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
-- Refreshing last_seen_at while someone browses changes nothing a page shows, so it stays silent.
CREATE TRIGGER sessions_changed AFTER DELETE OR UPDATE OF id, user_id, expires_at ON sessions
  FOR EACH ROW EXECUTE FUNCTION notify_account_changed();
--> statement-breakpoint
CREATE TRIGGER sessions_truncated AFTER TRUNCATE ON sessions
  FOR EACH STATEMENT EXECUTE FUNCTION notify_account_changed();
--> statement-breakpoint
CREATE TRIGGER users_changed AFTER UPDATE OR DELETE ON users
  FOR EACH ROW EXECUTE FUNCTION notify_account_changed();
--> statement-breakpoint
CREATE TRIGGER users_truncated AFTER TRUNCATE ON users
  FOR EACH STATEMENT EXECUTE FUNCTION notify_account_changed();
--> statement-breakpoint
-- Seats and windows: a hold made, released or expired, a payment's outcome, a booking moved or
-- cancelled, a window or a closed time slot edited. The payload names the table.
CREATE OR REPLACE FUNCTION notify_availability_changed() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('availability_changed', TG_TABLE_NAME);
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER bookings_availability_changed AFTER INSERT OR DELETE OR TRUNCATE OR UPDATE OF status, hold_expires_at, user_id ON bookings
  FOR EACH STATEMENT EXECUTE FUNCTION notify_availability_changed();
--> statement-breakpoint
CREATE TRIGGER booking_days_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON booking_days
  FOR EACH STATEMENT EXECUTE FUNCTION notify_availability_changed();
--> statement-breakpoint
CREATE TRIGGER slots_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON slots
  FOR EACH STATEMENT EXECUTE FUNCTION notify_availability_changed();
--> statement-breakpoint
CREATE TRIGGER closed_time_slots_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON closed_time_slots
  FOR EACH STATEMENT EXECUTE FUNCTION notify_availability_changed();
