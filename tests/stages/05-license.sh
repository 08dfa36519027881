# SPDX-License-Identifier: MIT OR Apache-2.0
# Every tracked source file names lwc's license (MIT OR Apache-2.0) in an SPDX line near its
# top, and both license texts are at the root. Test vectors keep their own terms.
set -euo pipefail
for f in LICENSE-MIT LICENSE-APACHE; do
  [ -s "$f" ] || { echo "missing license text: $f"; exit 1; }
done
python3 tools/spdx.py
