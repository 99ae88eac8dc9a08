CREATE TABLE "document_expiry_reminders" (
	"driver_id" uuid NOT NULL,
	"key" text NOT NULL,
	"expires_on" date NOT NULL,
	"threshold_days" smallint NOT NULL,
	"recipient_id" uuid NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "document_expiry_reminders_driver_id_key_expires_on_threshold_days_recipient_id_pk" PRIMARY KEY("driver_id","key","expires_on","threshold_days","recipient_id")
);
--> statement-breakpoint
CREATE TABLE "document_views" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"driver_id" uuid NOT NULL,
	"key" text NOT NULL,
	"viewer_id" uuid NOT NULL,
	"watermarked" boolean NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "driver_documents" ADD COLUMN "expires_on" date;--> statement-breakpoint
ALTER TABLE "document_expiry_reminders" ADD CONSTRAINT "document_expiry_reminders_driver_id_drivers_id_fk" FOREIGN KEY ("driver_id") REFERENCES "public"."drivers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_expiry_reminders" ADD CONSTRAINT "document_expiry_reminders_recipient_id_accounts_id_fk" FOREIGN KEY ("recipient_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_views" ADD CONSTRAINT "document_views_driver_id_drivers_id_fk" FOREIGN KEY ("driver_id") REFERENCES "public"."drivers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_views" ADD CONSTRAINT "document_views_viewer_id_accounts_id_fk" FOREIGN KEY ("viewer_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "document_views_document_idx" ON "document_views" USING btree ("driver_id","key","at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "driver_documents_expires_idx" ON "driver_documents" USING btree ("expires_on") WHERE "driver_documents"."expires_on" is not null;--> statement-breakpoint
CREATE INDEX "driver_documents_submitted_idx" ON "driver_documents" USING btree ("uploaded_at") WHERE "driver_documents"."status" = 'submitted';