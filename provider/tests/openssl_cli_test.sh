# SPDX-License-Identifier: MIT OR Apache-2.0
# The openssl tool with lwc.so: `openssl list` names every registered algorithm under its
# operation, and `openssl dgst -<name>` (with -xoflen for XOFs) equals `lwc hash` on random
# files for every hash and XOF; `openssl mac` gives each MAC and PRF its KAT tag.
# Usage: openssl_cli_test.sh PROVIDER_DIR LWC_TOOL
set -euo pipefail
dir=$1
lwc=$2
load=(-provider-path "$dir" -provider lwc)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "openssl cli: $*" >&2; exit 1; }

openssl list "${load[@]}" -providers -verbose >"$work/providers"
grep -q "name: lwc" "$work/providers" || fail "openssl list -providers does not describe lwc"
grep -q "not FIPS validated" "$work/providers" || fail "build info must say it is not FIPS validated"

openssl list "${load[@]}" -digest-algorithms -cipher-algorithms -mac-algorithms >"$work/listed"
# lwc list: one line per algorithm (name, kind, ...) between a header and a footnote
"$lwc" list | awk '$2 ~ /^(aead|hash|xof|cxof|mac|prf)$/ { print $1, $2 }' >"$work/registry"
[ -s "$work/registry" ] || fail "lwc list printed no algorithms"
while read -r name kind; do
  grep -qx "  $name @ lwc" "$work/listed" || fail "openssl list does not name $name ($kind)"
done <"$work/registry"

head -c 0 /dev/urandom >"$work/empty"
head -c 1 /dev/urandom >"$work/one"
head -c 1000 /dev/urandom >"$work/small"
head -c 100003 /dev/urandom >"$work/large"
checked=0
while read -r name kind; do
  case $kind in hash | xof | cxof) ;; *) continue ;; esac
  for f in "$work"/empty "$work"/one "$work"/small "$work"/large; do
    if [ "$kind" = hash ]; then
      got=$(openssl dgst "${load[@]}" "-$name" -r "$f" | cut -d' ' -f1)
      want=$("$lwc" hash -a "$name" --no-progress "$f" | cut -d' ' -f1)
    else
      # XOFs: the length from -xoflen; a CXOF with the empty customization string (the
      # openssl 3.0 tool has no option that sets a digest parameter).
      got=$(openssl dgst "${load[@]}" "-$name" -xoflen 77 -r "$f" | cut -d' ' -f1)
      want=$("$lwc" hash -a "$name" -l 77 --no-progress "$f" | cut -d' ' -f1)
    fi
    [ -n "$want" ] && [ "$got" = "$want" ] || fail "$name on $(basename "$f"): openssl '$got', lwc '$want'"
    checked=$((checked + 1))
  done
done <"$work/registry"
[ "$checked" -gt 0 ] || fail "no hash was checked"

# openssl mac: every MAC and PRF on its KAT file's first record (the empty message).
vectors=$(dirname "$0")/../../tests/vectors
macs=0
while read -r name kind; do
  case $kind in mac | prf) ;; *) continue ;; esac
  file=$(find "$vectors" -name "$name.txt" | head -1)
  [ -n "$file" ] || fail "no KAT file for $name"
  record=$(awk '/^Count/ { n++ } n == 1' "$file")
  key=$(echo "$record" | awk -F' = ' '/^Key/ { print $2 }' | tr -d '\r ')
  want=$(echo "$record" | awk -F' = ' '/^Tag/ { print $2 }' | tr -d '\r ')
  [ -z "$(echo "$record" | awk -F' = ' '/^Msg/ { print $2 }' | tr -d '\r ')" ] ||
    fail "$name: the first record's message is not empty"
  got=$(openssl mac "${load[@]}" -macopt "hexkey:$key" -macopt "size:$((${#want} / 2))" \
    -in "$work/empty" "$name")
  [ "$got" = "$want" ] || fail "openssl mac $name: '$got', KAT '$want'"
  macs=$((macs + 1))
done <"$work/registry"
echo "openssl cli: $checked digests equal lwc hash, $macs MACs and PRFs their KAT; every registered algorithm listed"
