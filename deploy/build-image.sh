#!/bin/sh
# Builds the container image of linkapi-server from this checkout (deploy/Containerfile).
#
#   deploy/build-image.sh            cargo build --release, then podman build
#
# Environment:
#   LINKAPI_IMAGE   name of the image             [default: linkapi-server:<version>]
#   LINKAPI_BIN     a linkapi-server already built; skips cargo build
#   CONTAINER       podman, buildah or docker     [default: podman]
#
# The image is made FROM scratch: the binary, the shared libraries `ldd` says it loads (glibc,
# libgcc_s, libm, the loader), /etc/passwd and /etc/group naming the user 65532, an
# nsswitch.conf (names from /etc/hosts, then DNS), /tmp, the licences, and /data.
set -eu
cd "$(dirname "$0")/.."

engine=${CONTAINER:-podman}
if [ -n "${LINKAPI_BIN:-}" ]; then
  bin=$LINKAPI_BIN
else
  cargo build --release --locked -p linkapi-server
  bin=target/release/linkapi-server
fi
# "linkapi-server 0.8.0 (9179a5338eb9)"
version=$("$bin" --version | cut -d' ' -f2)
revision=$("$bin" --version | sed -n 's/.*(\([0-9a-f]*\))$/\1/p')
image=${LINKAPI_IMAGE:-linkapi-server:$version}

context=target/image
rm -rf "$context"
root=$context/root
mkdir -p "$root/usr/local/bin" "$root/etc" "$root/tmp" "$root/usr/share/doc/linkapi" \
  "$context/data"
chmod 1777 "$root/tmp"
cp "$bin" "$root/usr/local/bin/linkapi-server"
cp LICENSE-MIT LICENSE-APACHE "$root/usr/share/doc/linkapi/"

# The libraries the loader resolves ("libc.so.6 => /lib/.../libc.so.6 (0x...)") and the
# loader itself ("/lib64/ld-linux-x86-64.so.2 (0x...)"); none for a static binary.
libraries=$(ldd "$bin" 2>/dev/null | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }' || true)
for lib in $libraries; do
  mkdir -p "$root$(dirname "$lib")"
  cp -L "$lib" "$root$lib"
done

cat > "$root/etc/passwd" <<'PASSWD'
root:x:0:0:root:/root:/sbin/nologin
linkapi:x:65532:65532:linkapi:/data:/sbin/nologin
PASSWD
cat > "$root/etc/group" <<'GROUP'
root:x:0:
linkapi:x:65532:
GROUP
echo 'hosts: files dns' > "$root/etc/nsswitch.conf"

case $engine in
  docker) flags= ;;
  # HEALTHCHECK is part of Docker's image format only (OCI images drop it); no intermediate
  # images are kept, as nothing before the COPY is worth caching.
  *) flags="--format docker --layers=false" ;;
esac
# shellcheck disable=SC2086 # $flags are words
"$engine" build $flags -f deploy/Containerfile \
  --build-arg "VERSION=$version" --build-arg "REVISION=$revision" \
  -t "$image" "$context" >&2
echo "$image"
