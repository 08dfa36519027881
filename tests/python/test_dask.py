# SPDX-License-Identifier: MIT OR Apache-2.0
"""lwc.dask on a two-process LocalCluster: a column encrypted, decrypted and hashed partition by
partition, keys looked up on the workers by id and never present in the task graph."""

import os
import random
import sys

import pytest

pa = pytest.importorskip("pyarrow")
pd = pytest.importorskip("pandas")
dd = pytest.importorskip("dask.dataframe")
distributed = pytest.importorskip("distributed")
cloudpickle = pytest.importorskip("cloudpickle")

import lwc  # noqa: E402
import lwc.dask  # noqa: E402

KEY_FILE_VAR = "LWC_TEST_KEY_DIR"


def lookup_from_dir(key_id):
    """Reads the key from a directory that only the workers are told about (environment)."""
    with open(os.path.join(os.environ[KEY_FILE_VAR], key_id), "rb") as f:
        return f.read()


# The worker processes need not import this test module: the lookup travels by value.
cloudpickle.register_pickle_by_value(sys.modules[__name__])


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    key_dir = tmp_path_factory.mktemp("keys")
    os.environ[KEY_FILE_VAR] = str(key_dir)  # inherited by the worker processes
    rng = random.Random("dask-keys")
    keys = {}
    for kid in ("k1", "k2"):
        keys[kid] = rng.randbytes(16)
        (key_dir / kid).write_bytes(keys[kid])
    cluster = distributed.LocalCluster(n_workers=2, processes=True, threads_per_worker=1,
                                       dashboard_address=None)
    c = distributed.Client(cluster)
    c.keys_for_test = keys
    yield c
    c.close()
    cluster.close()


def frame(n=400, partitions=4):
    rng = random.Random("dask-frame")
    payload = [None if i % 17 == 0 else rng.randbytes(rng.randrange(0, 3000)) for i in range(n)]
    pdf = pd.DataFrame({
        "id": range(n),
        "key_id": pd.array(["k1" if i % 3 else "k2" for i in range(n)], dtype=pd.ArrowDtype(pa.string())),
        "payload": pd.array(payload, dtype=pd.ArrowDtype(pa.binary())),
    })
    return pdf, dd.from_pandas(pdf, npartitions=partitions)


def test_encrypt_decrypt_hash_on_workers(client):
    keys = client.keys_for_test
    pdf, ddf = frame()
    sealed = lwc.dask.encrypt_column(ddf, "payload", "ascon-aead128", key_lookup=lookup_from_dir,
                                     key_id_column="key_id", nonce_column="nonce", out_column="sealed")
    # The raw keys are nowhere in the task graph: only their ids and the lookup function.
    graph = cloudpickle.dumps(dict(sealed.__dask_graph__()))
    assert all(k not in graph for k in keys.values())
    got = sealed.compute()
    assert len(got) == len(pdf)
    assert isinstance(got["sealed"].dtype, pd.ArrowDtype) and got["sealed"].dtype.pyarrow_dtype == pa.binary()
    nonces = got["nonce"].tolist()
    assert len(set(nonces)) == len(nonces)  # fresh random nonces, one per row
    for kid, nonce, msg, ct in zip(got["key_id"], nonces, pdf["payload"], got["sealed"]):
        if msg is None or msg is pd.NA:
            assert ct is None or ct is pd.NA
        else:
            assert ct == lwc.AsconAEAD128(keys[kid]).encrypt(nonce, msg, None)

    back = lwc.dask.decrypt_column(sealed, "sealed", "ascon-aead128", key_lookup=lookup_from_dir,
                                   key_id_column="key_id", out_column="plain").compute()
    assert back["plain"].tolist() == got["payload"].tolist()
    present = back["payload"].notna()
    assert back["plain_ok"].notna().all()  # never null: a null row did not verify
    assert back["plain_ok"][present].all() and not back["plain_ok"][~present].any()

    digests = lwc.dask.hash_column(ddf, "payload", "ascon-hash256").compute()
    assert [d for d in digests["payload_ascon-hash256"] if d is not None and d is not pd.NA] == \
        [lwc.ascon_hash256_digest(m) for m in pdf["payload"] if m is not None and m is not pd.NA]


def test_single_key_id_and_wrong_key_rejected(client):
    pdf, ddf = frame(n=60, partitions=2)
    sealed = lwc.dask.encrypt_column(ddf, "payload", "xoodyak", key_lookup=lookup_from_dir, key_id="k1",
                                     threads=1)
    # Decrypting under the other key id: every non-null row fails, alone, and releases nothing.
    back = lwc.dask.decrypt_column(sealed, "payload", "xoodyak", key_lookup=lookup_from_dir,
                                   key_id="k2", threads=1).compute()
    non_null = pdf["payload"].notna()
    assert back["payload"].isna().all()
    assert not back["payload_ok"][non_null].any()
    good = lwc.dask.decrypt_column(sealed, "payload", "xoodyak", key_lookup=lookup_from_dir,
                                   key_id="k1").compute()
    assert good["payload"].tolist() == pdf["payload"].tolist()


def test_threads_are_checked_when_the_graph_is_built():
    _, ddf = frame(n=10, partitions=1)
    for call in (lambda: lwc.dask.encrypt_column(ddf, "payload", "ascon-aead128", key_lookup=lookup_from_dir,
                                                 key_id="k1", threads=-1),
                 lambda: lwc.dask.decrypt_column(ddf, "payload", "ascon-aead128", key_lookup=lookup_from_dir,
                                                 key_id="k1", threads=1.5),
                 lambda: lwc.dask.hash_column(ddf, "payload", "ascon-hash256", threads=True)):
        with pytest.raises(ValueError, match="threads must be"):
            call()
