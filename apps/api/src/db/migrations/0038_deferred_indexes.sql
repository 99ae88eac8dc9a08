CREATE TABLE "deferred_indexes" (
	"name" text PRIMARY KEY NOT NULL,
	"table_name" text NOT NULL,
	"kind" text NOT NULL,
	"definition" text NOT NULL,
	"targets" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"deferred_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "deferred_indexes_kind_check" CHECK ("deferred_indexes"."kind" in ('index', 'foreign key'))
);
