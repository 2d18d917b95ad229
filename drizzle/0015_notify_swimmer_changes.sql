-- The booking page keeps each account's swimmers (and whether each may be booked) in memory with
-- its seats; a swimmer added, edited or erased, or a parent's consent given or withdrawn, tells every
-- instance to drop those copies, on the same channel as seats and windows. The payload names the table.
CREATE TRIGGER swimmers_availability_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON swimmers
  FOR EACH STATEMENT EXECUTE FUNCTION notify_availability_changed();
--> statement-breakpoint
CREATE TRIGGER guardian_consents_availability_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON guardian_consents
  FOR EACH STATEMENT EXECUTE FUNCTION notify_availability_changed();
