// The finished render the project page follows, played inline: its video with its poster as the still before play
// (a GIF is an image; a png-sequence's zip cannot play, so its poster stands in). The file and the poster come from
// the studio's own origin with the session cookie, which the dashboard's CSP allows (media-src, img-src 'self').
interface Props {
  filename: string;
  downloadUrl: string;
  posterUrl: string | null;
}

export function FinishedPlayer({ filename, downloadUrl, posterUrl }: Props) {
  const name = filename.toLowerCase();
  if (name.endsWith(".zip")) {
    return posterUrl ? <img class="player" src={posterUrl} alt={`Poster of ${filename}`} data-testid="render-player-poster" /> : null;
  }
  if (name.endsWith(".gif")) return <img class="player" src={downloadUrl} alt={`Render ${filename}`} data-testid="render-player-gif" />;
  return (
    <video
      class="player"
      src={downloadUrl}
      poster={posterUrl ?? undefined}
      controls
      muted
      playsInline
      preload="metadata"
      aria-label={`Play ${filename}`}
      data-testid="render-player"
    />
  );
}
