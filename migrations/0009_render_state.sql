ALTER TABLE `renders` ADD `state` text DEFAULT '{}' NOT NULL;--> statement-breakpoint
-- Existing rows get the state GET /api/renders/:id showed for them: the options from the render's job row. A row
-- whose job was already swept (after 7 days) gets the request defaults (quality standard, index.html, the
-- composition's fps and size), which is what an agent's render without options used.
UPDATE `renders` SET `state` = json_object(
  'id', `renders`.`id`,
  'slug', `renders`.`slug`,
  'status', `renders`.`status`,
  'startedAt', `renders`.`started_at`,
  'doneAt', `renders`.`done_at`,
  'filename', `renders`.`filename`,
  'downloadUrl', CASE WHEN `renders`.`status` = 'done' AND `renders`.`deleted_at` IS NULL THEN '/renders/' || `renders`.`filename` END,
  'lastLine', coalesce(`renders`.`last_line`, ''),
  'eventsUrl', '/api/projects/' || `renders`.`slug` || '/render/events',
  'format', `renders`.`format`,
  'quality', coalesce((SELECT json_extract(`options`, '$.quality') FROM `jobs` WHERE `jobs`.`id` = `renders`.`id`), 'standard'),
  'fps', (SELECT json_extract(`options`, '$.fps') FROM `jobs` WHERE `jobs`.`id` = `renders`.`id`),
  'resolution', (SELECT json_extract(`options`, '$.resolution') FROM `jobs` WHERE `jobs`.`id` = `renders`.`id`),
  'composition', coalesce((SELECT json_extract(`options`, '$.composition') FROM `jobs` WHERE `jobs`.`id` = `renders`.`id`), 'index.html'),
  'progress', json('null'),
  'error', (SELECT `error` FROM `jobs` WHERE `jobs`.`id` = `renders`.`id`),
  'size', `renders`.`size`,
  'segments', json('null')
);
