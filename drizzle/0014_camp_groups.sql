ALTER TABLE "camp_registrations" ADD COLUMN "group_id" integer;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "camp_registration_id" integer;--> statement-breakpoint
ALTER TABLE "camp_registrations" ADD CONSTRAINT "camp_registrations_group_id_camp_registrations_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."camp_registrations"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_camp_registration_id_camp_registrations_id_fk" FOREIGN KEY ("camp_registration_id") REFERENCES "public"."camp_registrations"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "camp_registrations_group" ON "camp_registrations" USING btree ("group_id");