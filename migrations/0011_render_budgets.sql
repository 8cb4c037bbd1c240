CREATE TABLE `render_budgets` (
	`account` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`seconds_per_day` real NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `render_budgets_user` ON `render_budgets` (`user_id`);--> statement-breakpoint
CREATE TABLE `render_charges` (
	`render_id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`day` text NOT NULL,
	`accounts` text NOT NULL,
	`reserved` real NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `render_usage` (
	`account` text NOT NULL,
	`day` text NOT NULL,
	`user_id` text NOT NULL,
	`seconds` real DEFAULT 0 NOT NULL,
	PRIMARY KEY(`account`, `day`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `render_usage_user_day` ON `render_usage` (`user_id`,`day`);