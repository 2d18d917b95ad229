-- The consent e-mails written before outbox messages said whom they are about: the request to a
-- parent, the confirmation of their answer and of their withdrawal. Each was written in the same
-- transaction as its consent request or consent, at the same instant and to the same address, so it
-- is tied to that request's swimmer here. Erasing the swimmer then removes them by that key, and no
-- erasure ever looks for messages by an address someone typed as a parent's.
UPDATE "outbox_messages" SET "swimmer_id" = r."swimmer_id"
  FROM "consent_requests" r
 WHERE "outbox_messages"."channel" = 'email' AND "outbox_messages"."to" = r."parent_email"
   AND "outbox_messages"."created_at" IN (r."created_at", r."answered_at")
   AND "outbox_messages"."account_id" IS NULL AND "outbox_messages"."swimmer_id" IS NULL
   AND "outbox_messages"."booking_id" IS NULL AND "outbox_messages"."camp_registration_id" IS NULL;--> statement-breakpoint
UPDATE "outbox_messages" SET "swimmer_id" = g."swimmer_id"
  FROM "guardian_consents" g
 WHERE g."swimmer_id" IS NOT NULL AND g."method" = 'consent_link'
   AND "outbox_messages"."channel" = 'email' AND "outbox_messages"."to" = g."guardian_email"
   AND "outbox_messages"."created_at" = g."withdrawn_at"
   AND "outbox_messages"."account_id" IS NULL AND "outbox_messages"."swimmer_id" IS NULL
   AND "outbox_messages"."booking_id" IS NULL AND "outbox_messages"."camp_registration_id" IS NULL;
