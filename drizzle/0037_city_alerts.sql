CREATE TABLE "city_alerts" (
	"id" serial PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"city" text NOT NULL,
	"city_key" text NOT NULL,
	"user_id" integer,
	"whatsapp" boolean DEFAULT false NOT NULL,
	"token_hash" text,
	"expires_at" timestamp with time zone,
	"confirmed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "city_alerts_lengths" CHECK (length("city_alerts"."email") <= 254 AND length("city_alerts"."city") BETWEEN 1 AND 60 AND length("city_alerts"."city_key") BETWEEN 1 AND 60),
	CONSTRAINT "city_alerts_pending" CHECK ("city_alerts"."confirmed_at" IS NOT NULL OR ("city_alerts"."token_hash" IS NOT NULL AND "city_alerts"."expires_at" IS NOT NULL))
);
--> statement-breakpoint
CREATE TABLE "city_alert_notices" (
	"id" serial PRIMARY KEY NOT NULL,
	"city_alert_id" integer NOT NULL,
	"analysis_day_id" integer NOT NULL,
	"token_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "city_alerts" ADD CONSTRAINT "city_alerts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "city_alert_notices" ADD CONSTRAINT "city_alert_notices_city_alert_id_city_alerts_id_fk" FOREIGN KEY ("city_alert_id") REFERENCES "public"."city_alerts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "city_alert_notices" ADD CONSTRAINT "city_alert_notices_analysis_day_id_analysis_days_id_fk" FOREIGN KEY ("analysis_day_id") REFERENCES "public"."analysis_days"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "city_alerts_address_city" ON "city_alerts" USING btree ("email","city_key");--> statement-breakpoint
CREATE UNIQUE INDEX "city_alerts_token_unique" ON "city_alerts" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "city_alerts_confirmed_city" ON "city_alerts" USING btree ("city_key") WHERE "city_alerts"."confirmed_at" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "city_alerts_unconfirmed" ON "city_alerts" USING btree ("expires_at") WHERE "city_alerts"."confirmed_at" IS NULL;--> statement-breakpoint
CREATE INDEX "city_alerts_user" ON "city_alerts" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "city_alert_notices_once" ON "city_alert_notices" USING btree ("city_alert_id","analysis_day_id");--> statement-breakpoint
CREATE UNIQUE INDEX "city_alert_notices_token_unique" ON "city_alert_notices" USING btree ("token_hash");
