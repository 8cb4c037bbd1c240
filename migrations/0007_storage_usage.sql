CREATE TABLE `storage_usage` (
	`user_id` text PRIMARY KEY NOT NULL,
	`bytes` integer NOT NULL,
	`objects` integer NOT NULL,
	`counted_at` integer NOT NULL
);
