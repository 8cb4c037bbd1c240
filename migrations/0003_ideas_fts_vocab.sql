-- Which stems the idea index knows: the duplicate check adds typo-tolerant prefix queries only for title stems
-- the index has never seen (likely typos), which keeps the candidate query small on a large board.
CREATE VIRTUAL TABLE `ideas_fts_vocab` USING fts5vocab(`ideas_fts`, 'row');
