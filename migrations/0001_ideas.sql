CREATE TABLE `bots` (
	`id` text PRIMARY KEY NOT NULL,
	`owner_id` text NOT NULL,
	`name` text NOT NULL,
	`key_hash` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `bots_key_hash` ON `bots` (`key_hash`);--> statement-breakpoint
CREATE INDEX `bots_owner` ON `bots` (`owner_id`);--> statement-breakpoint
CREATE TABLE `enrichment_votes` (
	`enrichment_id` integer NOT NULL,
	`voter` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`enrichment_id`, `voter`),
	FOREIGN KEY (`enrichment_id`) REFERENCES `enrichments`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `enrichment_votes_voter` ON `enrichment_votes` (`voter`);--> statement-breakpoint
CREATE TABLE `enrichments` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`idea_id` integer NOT NULL,
	`kind` text NOT NULL,
	`body` text NOT NULL,
	`name` text NOT NULL,
	`author` text NOT NULL,
	`is_bot` integer NOT NULL,
	`votes` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`idea_id`) REFERENCES `ideas`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `enrichments_idea` ON `enrichments` (`idea_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `idea_comments` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`idea_id` integer NOT NULL,
	`body` text NOT NULL,
	`name` text NOT NULL,
	`author` text NOT NULL,
	`is_bot` integer NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`idea_id`) REFERENCES `ideas`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `idea_comments_idea` ON `idea_comments` (`idea_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `idea_groups` (
	`slug` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `idea_votes` (
	`idea_id` integer NOT NULL,
	`voter` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`idea_id`, `voter`),
	FOREIGN KEY (`idea_id`) REFERENCES `ideas`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `idea_votes_voter` ON `idea_votes` (`voter`);--> statement-breakpoint
CREATE TABLE `ideas` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`title` text NOT NULL,
	`body` text NOT NULL,
	`source` text,
	`name` text NOT NULL,
	`author` text NOT NULL,
	`is_bot` integer NOT NULL,
	`group_slug` text,
	`status` text DEFAULT 'open' NOT NULL,
	`votes` integer DEFAULT 0 NOT NULL,
	`enrichment_count` integer DEFAULT 0 NOT NULL,
	`comment_count` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`title_terms` text DEFAULT '' NOT NULL,
	`body_terms` text DEFAULT '' NOT NULL,
	FOREIGN KEY (`group_slug`) REFERENCES `idea_groups`(`slug`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `ideas_created` ON `ideas` (`created_at`);--> statement-breakpoint
CREATE INDEX `ideas_votes` ON `ideas` (`votes`,`created_at`);--> statement-breakpoint
CREATE INDEX `ideas_group` ON `ideas` (`group_slug`,`created_at`);--> statement-breakpoint
CREATE INDEX `ideas_status` ON `ideas` (`status`,`created_at`);--> statement-breakpoint
CREATE TABLE `rate_limits` (
	`caller` text PRIMARY KEY NOT NULL,
	`window_start` integer NOT NULL,
	`count` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `research_records` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`slug` text NOT NULL,
	`kind` text NOT NULL,
	`name` text NOT NULL,
	`summary` text,
	`body_md` text NOT NULL,
	`lines` text NOT NULL,
	`author` text NOT NULL,
	`sources` text,
	`related` text,
	`verified_at` text,
	`updated_at` text NOT NULL,
	`cover_url` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `research_slug` ON `research_records` (`slug`);--> statement-breakpoint
CREATE INDEX `research_kind` ON `research_records` (`kind`,`updated_at`);