CREATE TABLE `created_animations` (
	`user_id` text NOT NULL,
	`slug` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`user_id`, `slug`)
);
--> statement-breakpoint
CREATE TABLE `page_view_marks` (
	`visitor_id` text NOT NULL,
	`page` text NOT NULL,
	`counted_at` integer NOT NULL,
	PRIMARY KEY(`visitor_id`, `page`)
);
--> statement-breakpoint
ALTER TABLE `enrichment_votes` ADD `cast_by` text;--> statement-breakpoint
ALTER TABLE `idea_votes` ADD `cast_by` text;--> statement-breakpoint
ALTER TABLE `research_records` ADD `owner_id` text;--> statement-breakpoint
-- Votes count once per person: a bot's vote becomes its owner's. Rows keep who cast them in cast_by. Where the
-- owner (or another of their bots) already voted, the update is skipped and the extra row deleted; votes of bots
-- that were revoked before this migration (no owner known any more) stay as they are. Then every count is redone.
UPDATE `idea_votes` SET `cast_by` = `voter`;
--> statement-breakpoint
UPDATE OR IGNORE `idea_votes` SET `voter` = 'user:' || (SELECT `owner_id` FROM `bots` WHERE 'bot:' || `bots`.`id` = `idea_votes`.`voter`)
  WHERE `voter` IN (SELECT 'bot:' || `id` FROM `bots`);
--> statement-breakpoint
DELETE FROM `idea_votes` WHERE `voter` IN (SELECT 'bot:' || `id` FROM `bots`);
--> statement-breakpoint
UPDATE `ideas` SET `votes` = (SELECT count(*) FROM `idea_votes` WHERE `idea_votes`.`idea_id` = `ideas`.`id`);
--> statement-breakpoint
UPDATE `enrichment_votes` SET `cast_by` = `voter`;
--> statement-breakpoint
UPDATE OR IGNORE `enrichment_votes` SET `voter` = 'user:' || (SELECT `owner_id` FROM `bots` WHERE 'bot:' || `bots`.`id` = `enrichment_votes`.`voter`)
  WHERE `voter` IN (SELECT 'bot:' || `id` FROM `bots`);
--> statement-breakpoint
DELETE FROM `enrichment_votes` WHERE `voter` IN (SELECT 'bot:' || `id` FROM `bots`);
--> statement-breakpoint
UPDATE `enrichments` SET `votes` = (SELECT count(*) FROM `enrichment_votes` WHERE `enrichment_votes`.`enrichment_id` = `enrichments`.`id`);
--> statement-breakpoint
-- Projects that exist or once rendered were created already: re-creating them after a delete is not a new animation.
INSERT OR IGNORE INTO `created_animations` (`user_id`, `slug`, `created_at`) SELECT `user_id`, `slug`, `created_at` FROM `projects`;
--> statement-breakpoint
INSERT OR IGNORE INTO `created_animations` (`user_id`, `slug`, `created_at`) SELECT `user_id`, `slug`, min(`started_at`) FROM `renders` GROUP BY `user_id`, `slug`;
