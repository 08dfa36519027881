# SPDX-License-Identifier: MIT OR Apache-2.0
"""Encrypt one column of a Parquet file with lwc.arrow, write it, read it back and decrypt it.

    python examples/python/parquet_roundtrip.py [directory]

Writes plain.parquet and sealed.parquet in the directory (default: a temporary one). Needs
pyarrow (pip install "lwc-crypto[arrow]").
"""

from __future__ import annotations

import os
import sys
import tempfile

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

import lwc
import lwc.arrow


def main(directory: str) -> None:
    # 1. A Parquet file with a sensitive column (written here so that the example stands alone).
    n = 1000
    plain_table = pa.table({
        "id": pa.array(range(n), pa.int64()),
        "email": pa.array([None if i % 50 == 0 else f"user{i}@example.com" for i in range(n)]),
        "note": pa.array([os.urandom(i % 200) for i in range(n)], pa.binary()),
    })
    plain_path = os.path.join(directory, "plain.parquet")
    pq.write_table(plain_table, plain_path, row_group_size=300)  # several chunks when read

    # 2. Read it, encrypt "note" under one key, a fresh random nonce per row, the row id bound
    #    in as associated data (a ciphertext moved to another row no longer decrypts).
    table = pq.read_table(plain_path)
    key = lwc.AsconAEAD128.generate_key()  # in practice: from your key store, never in the file
    nonces = pa.array([os.urandom(16) for _ in range(table.num_rows)], pa.binary(16))
    row_ad = pc.cast(pc.cast(table["id"], pa.string()), pa.binary())
    sealed = lwc.arrow.encrypt("ascon-aead128", key, nonces, table["note"], row_ad)
    sealed_table = table.set_column(table.schema.get_field_index("note"), "note", sealed)
    sealed_table = sealed_table.append_column("nonce", pa.chunked_array([nonces]))
    sealed_path = os.path.join(directory, "sealed.parquet")
    pq.write_table(sealed_table, sealed_path)

    # 3. Read the sealed file back and decrypt; every row must verify.
    back = pq.read_table(sealed_path)
    row_ad = pc.cast(pc.cast(back["id"], pa.string()), pa.binary())
    notes, ok = lwc.arrow.decrypt("ascon-aead128", key, back["nonce"], back["note"], row_ad)
    assert pc.all(ok).as_py(), "some rows did not verify"
    assert notes.combine_chunks().equals(plain_table["note"].combine_chunks())
    assert back["email"].equals(plain_table["email"])
    print(f"{table.num_rows} rows: encrypted, written to {os.path.basename(sealed_path)}, "
          f"read back and decrypted; all tags verified")

    # 4. A tampered ciphertext fails alone: swap two rows' ciphertexts.
    swapped = back["note"].combine_chunks().take(pa.array([1, 0] + list(range(2, back.num_rows))))
    _, ok = lwc.arrow.decrypt("ascon-aead128", key, back["nonce"], swapped, row_ad)
    print(f"after swapping two rows: {ok.to_pylist().count(False)} rows rejected")


if __name__ == "__main__":
    if len(sys.argv) > 1:
        main(sys.argv[1])
    else:
        with tempfile.TemporaryDirectory() as tmp:
            main(tmp)
