-- Full-text index of ideas for duplicate candidates, over the stem columns ideas.title_terms / body_terms, which
-- the Worker fills from core/similarity (indexStemsOf) so the index and the scorer agree on every word.
-- External content: the text lives once, in ideas; triggers keep the index in step in the same transaction.
-- prefix='4' keeps four-letter prefixes so typo-tolerant prefix queries stay index lookups.
CREATE VIRTUAL TABLE `ideas_fts` USING fts5(`title_terms`, `body_terms`, content='ideas', content_rowid='id', prefix='4');
--> statement-breakpoint
CREATE TRIGGER `ideas_fts_insert` AFTER INSERT ON `ideas` BEGIN
  INSERT INTO `ideas_fts` (rowid, `title_terms`, `body_terms`) VALUES (new.`id`, new.`title_terms`, new.`body_terms`);
END;
--> statement-breakpoint
CREATE TRIGGER `ideas_fts_delete` AFTER DELETE ON `ideas` BEGIN
  INSERT INTO `ideas_fts` (`ideas_fts`, rowid, `title_terms`, `body_terms`) VALUES ('delete', old.`id`, old.`title_terms`, old.`body_terms`);
END;
--> statement-breakpoint
CREATE TRIGGER `ideas_fts_update` AFTER UPDATE OF `title_terms`, `body_terms` ON `ideas` BEGIN
  INSERT INTO `ideas_fts` (`ideas_fts`, rowid, `title_terms`, `body_terms`) VALUES ('delete', old.`id`, old.`title_terms`, old.`body_terms`);
  INSERT INTO `ideas_fts` (rowid, `title_terms`, `body_terms`) VALUES (new.`id`, new.`title_terms`, new.`body_terms`);
END;
