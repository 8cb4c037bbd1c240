-- Full-text index of ideas for duplicate candidates. It holds the canonical stems computed by
-- core/similarity (indexStemsOf), not the raw text, so the Worker writes it next to each idea; rowid = ideas.id.
-- prefix='4' keeps four-letter prefixes so typo-tolerant prefix queries stay index lookups.
CREATE VIRTUAL TABLE `ideas_fts` USING fts5(`title`, `body`, prefix='4', tokenize='unicode61');
--> statement-breakpoint
CREATE TRIGGER `ideas_fts_delete` AFTER DELETE ON `ideas` BEGIN
  DELETE FROM `ideas_fts` WHERE rowid = old.`id`;
END;
