CREATE TABLE "grievance_alerts" (
	"grievance_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "grievance_alerts_grievance_id_kind_due_at_pk" PRIMARY KEY("grievance_id","kind","due_at")
);
--> statement-breakpoint
ALTER TABLE "grievance_alerts" ADD CONSTRAINT "grievance_alerts_grievance_id_grievances_id_fk" FOREIGN KEY ("grievance_id") REFERENCES "public"."grievances"("id") ON DELETE cascade ON UPDATE no action;